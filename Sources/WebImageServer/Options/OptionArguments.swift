#if Server
    import Foundation
    import WebImage

    /// The arguments of one processing option, with the checks every option shares. Each failure is
    /// a 400 that names the option.
    struct OptionArguments {
        let name: String
        let values: [String]
        /// What the option is called in messages: a processing option, or an info option.
        var kind = "processing option"

        func failure(_ reason: String) -> ServiceError {
            .badRequest("\(kind) '\(name)': \(reason)")
        }

        func count(atMost limit: Int) throws(ServiceError) {
            if values.count > limit { throw failure("takes at most \(limit) arguments, got \(values.count)") }
        }

        /// The one argument, converted by `convert`.
        func single<T>(_ convert: (String) throws(ServiceError) -> T) throws(ServiceError) -> T {
            guard values.count == 1 else { throw failure("takes one argument, got \(values.count)") }
            return try convert(values[0])
        }

        func singleInteger(atLeast minimum: Int) throws(ServiceError) -> Int {
            guard values.count == 1 else { throw failure("takes one argument, got \(values.count)") }
            return try integer(values[0], in: minimum...)
        }

        func singleNumber(atLeast minimum: Double) throws(ServiceError) -> Double {
            guard values.count == 1 else { throw failure("takes one argument, got \(values.count)") }
            return try number(values[0], atLeast: minimum)
        }

        func singleNumber(in range: ClosedRange<Double>) throws(ServiceError) -> Double {
            guard values.count == 1 else { throw failure("takes one argument, got \(values.count)") }
            guard let value = Double(values[0]), range.contains(value) else {
                throw failure("'\(values[0])' is not a number within \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }

        func singleNumber(above minimum: Double) throws(ServiceError) -> Double {
            guard values.count == 1 else { throw failure("takes one argument, got \(values.count)") }
            return try number(values[0], above: minimum)
        }

        func integer(_ text: String, in range: PartialRangeFrom<Int>) throws(ServiceError) -> Int {
            guard let value = Int(text), range.contains(value) else {
                throw failure("'\(text)' is not a whole number of at least \(range.lowerBound)")
            }
            return value
        }

        func number(_ text: String, atLeast minimum: Double) throws(ServiceError) -> Double {
            guard let value = Double(text), value.isFinite, value >= minimum else {
                throw failure("'\(text)' is not a number of at least \(minimum)")
            }
            return value
        }

        func number(_ text: String, above minimum: Double) throws(ServiceError) -> Double {
            guard let value = Double(text), value.isFinite, value > minimum else {
                throw failure("'\(text)' is not a number above \(minimum)")
            }
            return value
        }

        /// Go's `strconv.ParseBool` spellings, which imgproxy's URL builders write.
        func boolean(_ text: String) throws(ServiceError) -> Bool {
            switch text {
            case "1", "t", "T", "true", "TRUE", "True": return true
            case "0", "f", "F", "false", "FALSE", "False": return false
            default: throw failure("'\(text)' is not a boolean (1, t, true, 0, f or false)")
            }
        }

        func resizingType(_ text: String) throws(ServiceError) -> ProcessingOptions.ResizingType {
            guard let type = ProcessingOptions.ResizingType(rawValue: text) else {
                throw failure("'\(text)' is not fit, fill, fill-down, force or auto")
            }
            return type
        }

        /// 1…100, or 0 for the service's default.
        func quality(_ text: String) throws(ServiceError) -> Int? {
            guard let value = Int(text), (0...100).contains(value) else {
                throw failure("'\(text)' is not a quality from 0 to 100")
            }
            return value == 0 ? nil : value
        }

        /// A positive byte budget, or 0 for none.
        func maxBytes(_ text: String) throws(ServiceError) -> Int? {
            let value = try integer(text, in: 0...)
            return value == 0 ? nil : value
        }

        /// A format the service writes, or `svg`, which is answered for SVG sources only.
        func format(_ text: String) throws(ServiceError) -> ImageFormat {
            if ImageFormat(fileExtension: text) == .svg { return .svg }
            guard let format = OutputFormats.format(forExtension: text) else {
                throw failure("'\(text)' is not a format this service writes (\(OutputFormats.names))")
            }
            return format
        }

        func rightAngle(_ text: String) throws(ServiceError) -> Int {
            guard let value = Int(text), value % 90 == 0 else { throw failure("'\(text)' is not a multiple of 90") }
            return ((value % 360) + 360) % 360
        }

        /// `type[:x[:y]]`, `fp:x:y` (0…1 each) or `sm` (no offsets, and only where allowed).
        func gravity(_ arguments: [String], allowsSmart: Bool) throws(ServiceError) -> ProcessingOptions.Gravity {
            guard let type = arguments.first, !type.isEmpty else { throw failure("needs a gravity type") }
            switch type {
            case "sm":
                guard allowsSmart else { throw failure("smart gravity cannot place an extended image") }
                guard arguments.count == 1 else { throw failure("smart gravity takes no offsets") }
                return .smart
            case "fp":
                guard arguments.count == 3 else { throw failure("fp takes two coordinates, fp:x:y") }
                let x = try number(arguments[1], atLeast: 0)
                let y = try number(arguments[2], atLeast: 0)
                guard x <= 1, y <= 1 else { throw failure("focus point coordinates must be within 0…1") }
                return .focusPoint(x: x, y: y)
            default:
                guard let anchor = ProcessingOptions.Gravity.Anchor(rawValue: type) else {
                    throw failure("'\(type)' is not a gravity (ce, no, so, ea, we, noea, nowe, soea, sowe, fp, sm)")
                }
                guard arguments.count <= 3 else { throw failure("a gravity takes at most two offsets") }
                let x = arguments.count > 1 && !arguments[1].isEmpty ? try offset(arguments[1]) : 0
                let y = arguments.count > 2 && !arguments[2].isEmpty ? try offset(arguments[2]) : 0
                return .anchored(anchor, x: x, y: y)
            }
        }

        private func offset(_ text: String) throws(ServiceError) -> Double {
            guard let value = Double(text), value.isFinite else { throw failure("'\(text)' is not an offset") }
            return value
        }

        /// `ex:enabled[:gravity[:x[:y]]]`.
        func extend(_ arguments: [String]) throws(ServiceError) -> ProcessingOptions.Extend? {
            guard arguments.count <= 4 else { throw failure("extend takes at most 4 arguments") }
            guard let enabled = arguments.first, try boolean(enabled) else { return nil }
            var extend = ProcessingOptions.Extend()
            if arguments.count > 1 { extend.gravity = try gravity(Array(arguments[1...]), allowsSmart: false) }
            return extend
        }

        /// A known image format by any of its extensions (one this service may not write included).
        func knownFormat(_ text: String) throws(ServiceError) -> ImageFormat {
            let format = ImageFormat(fileExtension: text)
            guard format != .undefined else { throw failure("'\(text)' is not an image format") }
            return format
        }

        /// `fq:format:quality[:format:quality…]`; a quality of 0 removes the format's.
        func formatQualities() throws(ServiceError) -> [ImageFormat: Int] {
            guard !values.isEmpty, values.count % 2 == 0 else { throw failure("takes format:quality pairs") }
            var qualities: [ImageFormat: Int] = [:]
            for index in stride(from: 0, to: values.count, by: 2) {
                qualities[try knownFormat(values[index])] = try quality(values[index + 1]) ?? 0
            }
            return qualities
        }

        /// `skp:ext[:ext…]`.
        func formats() throws(ServiceError) -> Set<ImageFormat> {
            guard !values.isEmpty else { throw failure("takes one or more formats") }
            var formats: Set<ImageFormat> = []
            for value in values { formats.insert(try knownFormat(value)) }
            return formats
        }

        /// `t:threshold[:color[:equal_hor[:equal_ver]]]`; an empty threshold turns trimming off.
        func trim() throws(ServiceError) -> ProcessingOptions.Trim? {
            guard !values.isEmpty, values.count <= 4 else { throw failure("takes 1 to 4 arguments") }
            guard !values[0].isEmpty else { return nil }
            guard let threshold = Double(values[0]), threshold.isFinite else {
                throw failure("'\(values[0])' is not a threshold")
            }
            var trim = ProcessingOptions.Trim(threshold: threshold)
            if values.count > 1, !values[1].isEmpty {
                guard values[1].count == 3 || values[1].count == 6 else {
                    throw failure("'\(values[1])' is not a colour RGB or RRGGBB")
                }
                trim.color = try hexColour(values[1])
            }
            if values.count > 2, !values[2].isEmpty { trim.equalHorizontal = try boolean(values[2]) }
            if values.count > 3, !values[3].isEmpty { trim.equalVertical = try boolean(values[3]) }
            return trim
        }

        /// Megapixels (a finite number, 0 or more) as whole pixels, rounded (so that the canonical
        /// string, which writes megapixels back, parses to the same count).
        func megapixels(_ text: String) throws(ServiceError) -> Int {
            let value = try number(text, atLeast: 0)
            return Int(clamping: (value * 1_000_000).clamped(to: 0...Double(Int.max / 2)), rounding: .toNearestOrEven)
        }

        /// `wm:opacity[:position[:x[:y[:scale]]]]`: a position of imgproxy's nine gravities, `re` or
        /// `ch`; an opacity of 0 turns the watermark off.
        func watermark() throws(ServiceError) -> ProcessingOptions.Watermark? {
            guard !values.isEmpty, values.count <= 5 else { throw failure("takes 1 to 5 arguments") }
            let opacity = try number(values[0], atLeast: 0)
            guard opacity > 0 else { return nil }
            var watermark = ProcessingOptions.Watermark(opacity: opacity)
            if values.count > 1, !values[1].isEmpty {
                switch values[1] {
                case "re": watermark.position = .replicate
                case "ch": watermark.position = .chess
                default:
                    guard let anchor = ProcessingOptions.Gravity.Anchor(rawValue: values[1]) else {
                        throw failure(
                            "'\(values[1])' is not a position (ce, no, so, ea, we, noea, nowe, soea, sowe, re, ch)")
                    }
                    watermark.position = .anchored(anchor)
                }
            }
            if values.count > 2, !values[2].isEmpty { watermark.x = try offset(values[2]) }
            if values.count > 3, !values[3].isEmpty { watermark.y = try offset(values[3]) }
            if values.count > 4, !values[4].isEmpty { watermark.scale = try number(values[4], atLeast: 0) }
            return watermark
        }

        /// `z:x[:y]`: one factor for both axes, or one each; finite and above 0.
        func zoom() throws(ServiceError) -> (Double, Double) {
            guard values.count == 1 || values.count == 2 else { throw failure("takes one or two factors") }
            let x = try number(values[0], above: 0)
            return (x, values.count == 2 ? try number(values[1], above: 0) : x)
        }

        /// `pd:top[:right[:bottom[:left]]]`, whole pixels: as in CSS, a missing right copies the top, a
        /// missing bottom the top and a missing left the right. An empty first argument keeps the top.
        func padding(_ current: ProcessingOptions.Padding) throws(ServiceError) -> ProcessingOptions.Padding {
            try count(atMost: 4)
            func side(_ index: Int) throws(ServiceError) -> Int? {
                guard values.count > index, !values[index].isEmpty else { return nil }
                return try integer(values[index], in: 0...)
            }
            var padding = current
            padding.top = try side(0) ?? current.top
            padding.right = try side(1) ?? padding.top
            padding.bottom = try side(2) ?? padding.top
            padding.left = try side(3) ?? padding.right
            return padding
        }

        /// `fl:horizontal[:vertical]`; an empty argument keeps that axis as it was.
        func flip(_ horizontal: Bool, _ vertical: Bool) throws(ServiceError) -> (Bool, Bool) {
            guard values.count == 1 || values.count == 2 else { throw failure("takes one or two booleans") }
            let x = values[0].isEmpty ? horizontal : try boolean(values[0])
            let y = values.count == 2 && !values[1].isEmpty ? try boolean(values[1]) : vertical
            return (x, y)
        }

        /// `c:width[:height[:gravity…]]`: pixels, fractions below 1, or 0 for the whole side.
        func crop() throws(ServiceError) -> ProcessingOptions.Crop {
            guard !values.isEmpty, values.count <= 5 else { throw failure("takes 1 to 5 arguments") }
            let width = try number(values[0], atLeast: 0)
            let height = values.count > 1 && !values[1].isEmpty ? try number(values[1], atLeast: 0) : 0
            let gravity = values.count > 2 ? try gravity(Array(values[2...]), allowsSmart: true) : nil
            return ProcessingOptions.Crop(width: width, height: height, gravity: gravity)
        }

        /// `bg:RRGGBB` or `bg:R:G:B` (0…255 each); an empty argument turns it off.
        func background() throws(ServiceError) -> RGBA8? {
            switch values.count {
            case 1:
                return values[0].isEmpty ? nil : try hexColour(values[0])
            case 3:
                var channels: [UInt8] = []
                for value in values {
                    guard let channel = UInt8(value) else { throw failure("'\(value)' is not a colour channel 0…255") }
                    channels.append(channel)
                }
                return RGBA8(r: channels[0], g: channels[1], b: channels[2], a: 255)
            default:
                throw failure("takes a hex colour or three channels R:G:B")
            }
        }

        /// `RGB` (each digit doubled, as imgproxy reads it), `RRGGBB` or `RRGGBBAA`.
        func hexColour(_ text: String) throws(ServiceError) -> RGBA8 {
            var digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
            if digits.count == 3 { digits = String(digits.flatMap { [$0, $0] }) }
            guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
                let value = UInt32(digits, radix: 16)
            else {
                throw failure("'\(text)' is not a colour RGB, RRGGBB or RRGGBBAA")
            }
            let rgba = digits.count == 6 ? value << 8 | 0xFF : value
            return RGBA8(
                r: UInt8(rgba >> 24), g: UInt8((rgba >> 16) & 0xFF), b: UInt8((rgba >> 8) & 0xFF), a: UInt8(rgba & 0xFF)
            )
        }

        /// `fn:name[:encoded]`: with `encoded` true, the name is base64url.
        func filename() throws(ServiceError) -> String {
            guard values.count == 1 || values.count == 2 else {
                throw failure("takes a name and an optional 'encoded'")
            }
            guard values.count == 2, try boolean(values[1]) else { return values[0] }
            guard let data = Data(base64URLEncoded: values[0]), let name = String(data: data, encoding: .utf8) else {
                throw failure("the encoded file name is not base64url UTF-8")
            }
            return name
        }
    }
#endif
