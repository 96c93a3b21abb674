import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-jxl` (see `scripts/fuzz`): runs `FuzzBodies.jxl` on one
/// input and crashes on any violation, so that libFuzzer saves the input. In a build without
/// `--sanitize=fuzzer` this is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.jxl(Data(bytes: data, count: size)).trapOnViolations(target: "jxl")
    return 0
}
