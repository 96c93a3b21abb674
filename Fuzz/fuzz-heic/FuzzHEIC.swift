import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-heic` (see `scripts/fuzz`): runs `FuzzBodies.heic` on one
/// input and crashes on any violation, so that libFuzzer saves the input. In a build without
/// `--sanitize=fuzzer` this is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.heic(Data(bytes: data, count: size)).trapOnViolations(target: "heic")
    return 0
}
