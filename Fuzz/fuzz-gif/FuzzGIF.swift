import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-gif` (see `scripts/fuzz`): runs `FuzzBodies.gif` on one
/// input and crashes on any violation, so that libFuzzer saves the input. In a build without
/// `--sanitize=fuzzer` this is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.gif(Data(bytes: data, count: size)).trapOnViolations(target: "gif")
    return 0
}
