import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-svg` (see `scripts/fuzz`): runs `FuzzBodies.svg` on one
/// input and crashes on any violation, so that libFuzzer saves the input. In a build without
/// `--sanitize=fuzzer` this is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.svg(Data(bytes: data, count: size)).trapOnViolations(target: "svg")
    return 0
}
