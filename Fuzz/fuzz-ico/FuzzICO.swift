import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-ico` (see `scripts/fuzz`): runs `FuzzBodies.ico` on one
/// input and crashes on any violation, so that libFuzzer saves the input. In a build without
/// `--sanitize=fuzzer` this is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.ico(Data(bytes: data, count: size)).trapOnViolations(target: "ico")
    return 0
}
