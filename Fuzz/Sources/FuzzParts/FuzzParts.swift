// fuzz-parts: the same read as fuzz-read, but the fuzzer's bytes replace one XML file inside a valid stored ZIP
// (first byte: which file, see TemplateBook), so mutations reach the container, OPF, nav, NCX, encryption and
// XHTML parsers instead of dying in the ZIP layer.
import FuzzSupport

/// libFuzzer's entry point: one input, 0 when it was handled (a crash or a trap is the finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Exercise.book(TemplateBook.archive(fuzzInput: Array(UnsafeBufferPointer(start: data, count: size))))
    return 0
}
