// fuzz-read: the whole read from raw bytes (ZIP, container, package document, navigation, every spine document).
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Exercise.book(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
