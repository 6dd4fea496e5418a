// swift-format-ignore-file
// Example 3 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import AudioFiles
import BookText
import Contracts
import Conversion
import EPUBReader
import ESpeakEngine
import Foundation
import TagEditing

func libraryAPIExample3(converter: Converter, request: ConversionRequest) async throws {
    let summary = try await converter.run(request) { event in
        // called from a background thread, in order
    }
    print("\(summary.sectionsFailed) sections failed")
    // On cancellation of the calling task it throws ConversionError.cancelled, within about a second,
    // after the output folder is consistent.
}
