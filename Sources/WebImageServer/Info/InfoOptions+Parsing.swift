#if Server
    import WebImage

    extension InfoOptions {
        /// Parses `/info` option segments in order, a later option overriding an earlier one;
        /// presets (`preset`/`pr`) come from `presets`, whose `default` applies first. Every
        /// malformed or unknown option is a 400 naming it.
        public init(segments: [String], presets: ProcessingPresets = ProcessingPresets()) throws(ServiceError) {
            self.init()
            let leading = presets.segments["default"] != nil ? ["preset:default"] : []
            let pipelines = try presets.pipelines(of: leading + segments)
            guard pipelines.count == 1 else { throw .badRequest("info options have no chained pipelines ('-')") }
            for segment in pipelines[0] {
                let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard let apply = Self.parsers[parts[0]] else {
                    throw .badRequest("unknown info option '\(parts[0])'")
                }
                var arguments = OptionArguments(name: parts[0], values: Array(parts.dropFirst()))
                arguments.kind = "info option"
                try apply(&self, arguments)
            }
        }

        typealias Parser = @Sendable (inout InfoOptions, OptionArguments) throws(ServiceError) -> Void

        /// Each info option under its long and short names.
        static let parsers: [String: Parser] = {
            let table: [([String], Parser)] = [
                (["size", "s"], { o, a throws(ServiceError) in o.size = try a.single(a.boolean) }),
                (["format", "f"], { o, a throws(ServiceError) in o.format = try a.single(a.boolean) }),
                (["dimensions", "d"], { o, a throws(ServiceError) in o.dimensions = try a.single(a.boolean) }),
                (
                    ["exif"],
                    { o, a throws(ServiceError) in
                        (o.exif, o.exifCanonicalNames) = try a.flags(o.exif, o.exifCanonicalNames)
                    }
                ),
                (["iptc"], { o, a throws(ServiceError) in o.iptc = try a.single(a.boolean) }),
                (["xmp"], { o, a throws(ServiceError) in o.xmp = try a.single(a.boolean) }),
                // An image has no video metadata: accepted, and it adds nothing.
                (["video_meta", "vm"], { _, a throws(ServiceError) in _ = try a.single(a.boolean) }),
                (
                    ["detect_objects", "do"],
                    { _, a throws(ServiceError) in
                        if try a.single(a.boolean) { throw a.failure("needs object detection models, not built in") }
                    }
                ),
                (
                    ["classify", "cl"],
                    { _, a throws(ServiceError) in
                        guard let first = a.values.first else { throw a.failure("needs a number of classes") }
                        if try a.integer(first, in: 0...) > 0 {
                            throw a.failure("needs classification models, not built in")
                        }
                    }
                ),
                (["colorspace", "cs"], { o, a throws(ServiceError) in o.colorspace = try a.single(a.boolean) }),
                (["bands", "b"], { o, a throws(ServiceError) in o.bands = try a.single(a.boolean) }),
                (["sample_format", "sf"], { o, a throws(ServiceError) in o.sampleFormat = try a.single(a.boolean) }),
                (["pages_number", "pn"], { o, a throws(ServiceError) in o.pagesNumber = try a.single(a.boolean) }),
                (
                    ["alpha", "a"],
                    { o, a throws(ServiceError) in
                        (o.alpha, o.checksTransparency) = try a.flags(o.alpha, o.checksTransparency)
                    }
                ),
                (["crop", "c"], { o, a throws(ServiceError) in o.crop = try a.infoCrop() }),
                // Only the `obj` gravities use it, and they are not built in.
                (["objects_position", "obj_pos", "op"], { _, _ throws(ServiceError) in }),
                (["palette", "p"], { o, a throws(ServiceError) in o.paletteColors = try a.single(a.paletteSize) }),
                (
                    ["average", "avg"],
                    { o, a throws(ServiceError) in
                        (o.average, o.averageIgnoresTransparent) = try a.flags(
                            o.average, o.averageIgnoresTransparent)
                    }
                ),
                (
                    ["dominant_colors", "dc"],
                    { o, a throws(ServiceError) in
                        (o.dominantColors, o.buildsMissingColors) = try a.flags(
                            o.dominantColors, o.buildsMissingColors)
                    }
                ),
                (["blurhash", "bh"], { o, a throws(ServiceError) in o.blurHash = try a.blurHashComponents() }),
                (["thumb_hash", "th"], { o, a throws(ServiceError) in o.thumbHash = try a.single(a.boolean) }),
                (
                    ["perceptual_hash", "phash", "ph"],
                    { o, a throws(ServiceError) in o.perceptualHash = try a.single(a.boolean) }
                ),
                (["calc_hashsums", "chs"], { o, a throws(ServiceError) in o.hashsums = try a.hashsumTypes() }),
                (["hashsum", "hs"], { o, a throws(ServiceError) in o.expectedHashsum = try a.expectedHashsum() }),
                (["page", "pg"], { o, a throws(ServiceError) in o.page = try a.singleInteger(atLeast: 0) }),
                // Video settings: an image has no video, so they change nothing.
                (
                    ["video_thumbnail_second", "vts"],
                    { _, a throws(ServiceError) in _ = try a.singleNumber(atLeast: 0) }
                ),
                (["video_thumbnail_keyframes", "vtk"], { _, a throws(ServiceError) in _ = try a.single(a.boolean) }),
                (
                    ["cachebuster", "cb"],
                    { o, a throws(ServiceError) in o.cacheBuster = a.values.joined(separator: ":") }
                ),
                (
                    ["expires", "exp"],
                    { o, a throws(ServiceError) in o.expires = try a.singleInteger(atLeast: Int.min) }
                ),
                (
                    ["max_src_resolution", "msr"],
                    { o, a throws(ServiceError) in o.maxSourcePixels = try a.single(a.megapixels) }
                ),
                (
                    ["max_src_file_size", "msfs"],
                    { o, a throws(ServiceError) in o.maxSourceBytes = try a.singleInteger(atLeast: 0) }
                ),
            ]
            var parsers: [String: Parser] = [:]
            for (names, parser) in table {
                for name in names { parsers[name] = parser }
            }
            return parsers
        }()

        /// The options that change the answer, in one fixed order and spelling, defaults left out:
        /// equal strings mean equal answers. `expires` shapes only the response and is left out.
        public var canonicalString: String {
            var parts: [String] = []
            func add(_ name: String, _ values: Any...) {
                parts.append(([name] + values.map { "\($0)" }).joined(separator: ":"))
            }
            if !size { add("s", 0) }
            if !format { add("f", 0) }
            if !dimensions { add("d", 0) }
            if !exif || exifCanonicalNames { add("exif", exif ? 1 : 0, exifCanonicalNames ? 1 : 0) }
            if !iptc { add("iptc", 0) }
            if !xmp { add("xmp", 0) }
            if colorspace { add("cs", 1) }
            if bands { add("b", 1) }
            if sampleFormat { add("sf", 1) }
            if pagesNumber { add("pn", 1) }
            if alpha { add("a", 1, checksTransparency ? 1 : 0) }
            if let crop { add("c", crop.width, crop.height, (crop.gravity ?? .center).canonical) }
            if paletteColors > 0 { add("p", paletteColors) }
            if average { add("avg", 1, averageIgnoresTransparent ? 1 : 0) }
            if dominantColors { add("dc", 1, buildsMissingColors ? 1 : 0) }
            if let blurHash { add("bh", blurHash.x, blurHash.y) }
            if thumbHash { add("th", 1) }
            if perceptualHash { add("ph", 1) }
            if !hashsums.isEmpty { parts.append((["chs"] + hashsums.map(\.rawValue)).joined(separator: ":")) }
            if let expectedHashsum { add("hs", expectedHashsum.type.rawValue, expectedHashsum.hex) }
            if page != 0 { add("pg", page) }
            if let cacheBuster { add("cb", cacheBuster) }
            if let maxSourcePixels { add("msr", Double(maxSourcePixels) / 1_000_000) }
            if let maxSourceBytes { add("msfs", maxSourceBytes) }
            return parts.joined(separator: "/")
        }
    }

    extension OptionArguments {
        /// `name:FLAG[:SECOND]`: one or two booleans, an empty one keeping its value.
        func flags(_ first: Bool, _ second: Bool) throws(ServiceError) -> (Bool, Bool) {
            guard (1...2).contains(values.count) else { throw failure("takes 1 or 2 arguments, got \(values.count)") }
            let one = values[0].isEmpty ? first : try boolean(values[0])
            let two = values.count > 1 && !values[1].isEmpty ? try boolean(values[1]) : second
            return (one, two)
        }

        /// `c:WIDTH:HEIGHT[:GRAVITY…]`: off unless both sides are above 0.
        func infoCrop() throws(ServiceError) -> ProcessingOptions.Crop? {
            let crop = try crop()
            return crop.width > 0 && crop.height > 0 ? crop : nil
        }

        /// 0 (off) or 2…256.
        func paletteSize(_ text: String) throws(ServiceError) -> Int {
            let colors = try integer(text, in: 0...)
            guard colors == 0 || (2...256).contains(colors) else { throw failure("'\(text)' is not 0 or 2…256") }
            return colors
        }

        /// `bh:X:Y`, 0…9 each; nil unless both are above 0.
        func blurHashComponents() throws(ServiceError) -> (x: Int, y: Int)? {
            guard values.count == 2 else { throw failure("takes two arguments, got \(values.count)") }
            var components: [Int] = []
            for value in values {
                let count = try integer(value, in: 0...)
                guard count <= 9 else { throw failure("'\(value)' is more than 9 components") }
                components.append(count)
            }
            return components[0] > 0 && components[1] > 0 ? (components[0], components[1]) : nil
        }

        func hashsumType(_ text: String) throws(ServiceError) -> InfoOptions.HashsumType {
            guard let type = InfoOptions.HashsumType(rawValue: text) else {
                throw failure("'\(text)' is not md5, sha1, sha256 or sha512")
            }
            return type
        }

        /// `chs:TYPE:TYPE…`, each once, in the order given; none (or one empty argument) clears.
        func hashsumTypes() throws(ServiceError) -> [InfoOptions.HashsumType] {
            var types: [InfoOptions.HashsumType] = []
            for value in values where !value.isEmpty {
                let type = try hashsumType(value)
                if !types.contains(type) { types.append(type) }
            }
            return types
        }

        /// `hs:none` or `hs:TYPE:HEX`, the hex of that checksum's length.
        func expectedHashsum() throws(ServiceError) -> (type: InfoOptions.HashsumType, hex: String)? {
            guard let first = values.first, values.count <= 2 else { throw failure("takes 1 or 2 arguments") }
            if first == "none" { return nil }
            let type = try hashsumType(first)
            let lengths: [InfoOptions.HashsumType: Int] = [.md5: 32, .sha1: 40, .sha256: 64, .sha512: 128]
            guard values.count == 2, values[1].count == lengths[type], values[1].allSatisfy(\.isHexDigit) else {
                throw failure("needs the expected \(type.rawValue) as \(lengths[type] ?? 0) hex digits")
            }
            return (type, values[1].lowercased())
        }
    }
#endif
