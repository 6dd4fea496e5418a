// fuzz-read: the whole read from raw bytes (ZIP, container, package document, navigation, every spine document).
import FuzzSupport

/// libFuzzer's entry point: one input, 0 when it was handled (a crash or a trap is the finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Exercise.book(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
