// webimage-cache-torture: drives a DiskCache from a separate process so tests can SIGKILL it
// mid-write or run two against one directory. Every value is a function of its key and a
// generation number written at its front, so any reader can tell an intact value from a torn one.
//
//   write    DIR SEED KEYS [MAXLEN]     store random keys forever (prints "ready" after the first
//                                       store, then the count after every 100th)
//   hammer   DIR SEED MILLIS KEYS LIMIT store, read and verify for MILLIS ms with maxDiskSize LIMIT
//   verify   DIR KEYS MAXLEN            read every key; exit 1 if any value is not intact
//   fulldisk DIR                        under RLIMIT_FSIZE, a too-large store must fail cleanly
//   bench    DIR FILE...                disk hit + decode vs. reading the file + decode (build -c release)
//   decode   DIR                        decode and re-encode every file in DIR; one line per file
//                                       ("NAME ok WxH" or "NAME error CODE"), then this process's
//                                       peak resident memory ("peak=BYTES", from VmHWM)
import Foundation
import WebImage
import WebImageTestOrigin

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webimage-cache-torture: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: write|hammer|verify|fulldisk DIR ...") }
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
let maxLength = 256 << 10

switch arguments[1] {
case "write":
    guard arguments.count == 5 || arguments.count == 6, let seed = UInt64(arguments[3]),
        let keys = UInt64(arguments[4])
    else { fail("write") }
    let writeLength = arguments.count == 6 ? Int(arguments[5]) ?? maxLength : maxLength
    let cache: DiskCache
    do { cache = try DiskCache(directory: directory) } catch { fail("\(error)") }
    var rng = SplitMix64(seed: seed)
    var stores = 0
    while true {
        let key = "k\(rng.next() % keys)"
        do {
            try cache.setData(
                CacheTortureValue.value(key: key, generation: rng.next() % 1000, maxLength: writeLength), forKey: key,
                metadata: nil)
        } catch { fail("store \(key): \(error)") }
        stores += 1
        // Unbuffered, so the parent sees each line at once.
        if stores == 1 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
        if stores % 100 == 0 { FileHandle.standardOutput.write(Data("\(stores)\n".utf8)) }
    }

case "hammer":
    guard arguments.count == 7, let seed = UInt64(arguments[3]), let millis = Double(arguments[4]),
        let keys = UInt64(arguments[5]), let limit = Int(arguments[6])
    else { fail("hammer") }
    var config = ImageCacheConfig()
    config.maxDiskSize = limit
    let cache: DiskCache
    do { cache = try DiskCache(directory: directory, config: config) } catch { fail("\(error)") }
    var rng = SplitMix64(seed: seed)
    let deadline = Date().addingTimeInterval(millis / 1000)
    var stores = 0
    var reads = 0
    var hits = 0
    // The deadline, but at least 300 reads: on a loaded machine a process may get little of
    // its time slice before the deadline, and a run without reads checks nothing.
    while Date() < deadline || reads < 300 {
        let key = "k\(rng.next() % keys)"
        switch rng.next() % 10 {
        case 0..<4:
            let data = CacheTortureValue.value(key: key, generation: rng.next() % 1000, maxLength: 64 << 10)
            do { try cache.setData(data, forKey: key, metadata: DiskCacheMetadata(etag: key)) } catch {
                fail("store \(key): \(error)")
            }
            stores += 1
        case 4:
            cache.removeData(forKey: key)
        default:
            reads += 1
            guard let entry = cache.entry(forKey: key) else { continue }
            guard CacheTortureValue.isIntact(entry.data, key: key, maxLength: 64 << 10), entry.metadata.etag == key
            else {
                fail("corrupt value for \(key) (\(entry.data.count) bytes)")
            }
            hits += 1
        }
    }
    print("stores=\(stores) reads=\(reads) hits=\(hits)")

case "verify":
    guard arguments.count == 5, let keys = Int(arguments[3]), let verifyLength = Int(arguments[4]) else {
        fail("verify")
    }
    let cache: DiskCache
    do { cache = try DiskCache(directory: directory) } catch { fail("\(error)") }
    var valid = 0
    for index in 0..<keys {
        let key = "k\(index)"
        guard let data = cache.data(forKey: key) else { continue }
        guard CacheTortureValue.isIntact(data, key: key, maxLength: verifyLength) else {
            fail("corrupt value for \(key)")
        }
        valid += 1
    }
    print("valid=\(valid)")

case "fulldisk":
    // RLIMIT_FSIZE makes write(2) fail with EFBIG past the limit, like a full disk does with
    // ENOSPC; SIGXFSZ would kill us first unless ignored.
    let cache: DiskCache
    do { cache = try DiskCache(directory: directory) } catch { fail("\(error)") }
    let small = CacheTortureValue.value(key: "k0", generation: 1, maxLength: 4 << 10)
    let other = CacheTortureValue.value(key: "k1", generation: 2, maxLength: 4 << 10)
    do {
        try cache.setData(small, forKey: "k0", metadata: nil)
        try cache.setData(other, forKey: "k1", metadata: nil)
    } catch { fail("first stores: \(error)") }
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: 64 << 10, rlim_max: 64 << 10)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { fail("setrlimit") }
    var big = CacheTortureValue.value(key: "k0", generation: 3, maxLength: 8)
    big.append(Data(count: 256 << 10))
    do throws(WebImageError) {
        try cache.setData(big, forKey: "k0", metadata: nil)
        fail("a store past RLIMIT_FSIZE succeeded")
    } catch  where error.code == .diskCacheFailure {
        print("failure: \(error.message)")
    } catch { fail("unexpected error \(error)") }
    guard cache.data(forKey: "k0") == small, cache.data(forKey: "k1") == other else {
        fail("entries changed by the failed store")
    }
    let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    guard leftovers.count == 2 else { fail("files left: \(leftovers)") }
    print("ok")

case "bench":
    // Alternates the two ways in rounds, so drift in machine load hits both alike.
    let cache: DiskCache
    do { cache = try DiskCache(directory: directory) } catch { fail("\(error)") }
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    for file in arguments.dropFirst(3) {
        guard let bytes = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
        let plain = directory.appendingPathComponent("plain-\(UUID())")
        do {
            try bytes.write(to: plain)
            try cache.setData(bytes, forKey: file, metadata: nil)
        } catch { fail("\(error)") }
        var times = (plainRead: 0.0, plainDecode: 0.0, cacheRead: 0.0, cacheDecode: 0.0)
        let iterations = max(20, min(2000, 20_000_000 / max(bytes.count, 1)))
        do {
            for _ in 0..<5 {
                times.plainRead += try seconds { for _ in 0..<iterations { _ = try Data(contentsOf: plain) } }
                times.cacheRead += seconds { for _ in 0..<iterations { _ = cache.data(forKey: file) } }
                times.plainDecode += try seconds {
                    for _ in 0..<iterations / 10 + 1 {
                        _ = try ImageCodersManager.shared.decode(Data(contentsOf: plain), options: ImageDecodeOptions())
                    }
                }
                times.cacheDecode += try seconds {
                    for _ in 0..<iterations / 10 + 1 {
                        _ = try ImageCodersManager.shared.decode(
                            cache.data(forKey: file)!, options: ImageDecodeOptions())
                    }
                }
            }
        } catch { fail("\(error)") }
        let name = (file as NSString).lastPathComponent
        let us = { (total: Double, count: Int) in String(format: "%.1f", total / Double(count * 5) * 1e6) }
        print(
            "\(name) \(bytes.count) B: read \(us(times.plainRead, iterations)) us, cache read \(us(times.cacheRead, iterations)) us;"
                + " read+decode \(us(times.plainDecode, iterations / 10 + 1)) us, cache hit+decode"
                + " \(us(times.cacheDecode, iterations / 10 + 1)) us, ratio"
                + " \(String(format: "%.3f", times.cacheDecode / times.plainDecode))")
    }

case "decode":
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    for name in names {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            fail("cannot read \(name)")
        }
        do {
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            _ = try ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())
            print("\(name) ok \(image.width)x\(image.height)")
        } catch {
            // A WebImageError: the coders' typed throws allow no other.
            print("\(name) error \(error.code)")
        }
    }
    // VmHWM belongs to this program's own address space (new at exec), unlike wait4's
    // ru_maxrss, which Linux carries over from the process that spawned it.
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let peak =
        status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
    print("peak=\(peak * 1024)")

default:
    fail("unknown mode \(arguments[1])")
}
