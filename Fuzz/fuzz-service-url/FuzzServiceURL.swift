import Foundation
import WebImageFuzzing

/// libFuzzer's entry point for `fuzz-service-url` (see `scripts/fuzz`): runs
/// `FuzzBodies.serviceURL` on one input and crashes on any violation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.serviceURL(Data(bytes: data, count: size)).trapOnViolations(target: "service-url")
    return 0
}
