// fuzz-markup: MarkupParser.parseXHTML (XML, then the recovering HTML parser) and parseXML on raw bytes.
import FuzzSupport
import Markup

/// libFuzzer's entry point: one input, 0 when it was handled (a crash or a trap is the finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var sink = Hasher()
    if let document = try? MarkupParser.parseXHTML(bytes, documentName: "fuzz.xhtml") {
        Exercise.document(document, into: &sink)
    }
    blackHole(sink.finalize())
    return 0
}
