// swift-format-ignore-file
// Example 4 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import Foundation
import LiveConversion

func libraryAPIExample4() async throws {
    // epub2audio worker  (hidden): jobs on stdin, messages on stdout, nothing else on stdout; the live
    // environment (LiveEnvironment.make()), so a section comes out as the coordinator's would.
    exit(LiveWorker.run())
}
