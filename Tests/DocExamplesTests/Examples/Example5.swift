// swift-format-ignore-file
// Example 5 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import Foundation
import LiveConversion

func libraryAPIExample5() async throws {
    // epub2audio fork-server  (hidden; the default): the same protocol, each job in a forked child.
    // Called first thing in main(), before anything starts a thread (see Sources/CLI/epub2audio/Entry.swift).
    exit(LiveWorker.runForkServer())
}
