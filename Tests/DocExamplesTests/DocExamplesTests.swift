import Foundation
import Testing

/// The Swift examples of docs/library-api.md are compiled: `Examples/ExampleN.swift` holds the N-th
/// as the body of a function that is never called, in a file of its own with its own imports (a
/// fragment without imports continues the example before it and takes that one's), so the build
/// (`make check`) fails when an example stops compiling, and this test fails when the docs and those
/// files say different things.
///
/// An example that uses values it does not make says so in an HTML comment just before its fence,
/// `<!-- compiled with: converter: Converter, request: ConversionRequest -->`: they become the
/// function's parameters.
@Suite struct DocExamplesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL
    static let docs = "docs/library-api.md"
    static let compiled = "Tests/DocExamplesTests/Examples"

    /// One fenced Swift example: its imports, its other lines, the values it is given.
    struct Example: Equatable {
        var imports: [String] = []
        var body: [String] = []
        var parameters = ""
    }

    /// The Swift examples of `markdown`, in order.
    static func examples(in markdown: String) -> [Example] {
        var examples: [Example] = []
        var current: Example?
        var parameters = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var example = current {
                if line == "```" {
                    while example.body.first?.isEmpty == true { example.body.removeFirst() }
                    while example.body.last?.isEmpty == true { example.body.removeLast() }
                    examples.append(example)
                    current = nil
                } else if line.hasPrefix("import ") {
                    let module = line.dropFirst("import ".count).split(separator: " ").first.map(String.init) ?? ""
                    example.imports.append(module)
                    current = example
                } else {
                    example.body.append(line)
                    current = example
                }
            } else if line == "```swift" {
                current = Example(parameters: parameters)
                parameters = ""
            } else if line.hasPrefix("<!-- compiled with:"), line.hasSuffix("-->") {
                parameters = String(line.dropFirst("<!-- compiled with:".count).dropLast(3))
                    .trimmingCharacters(in: .whitespaces)
            } else if !line.isEmpty {
                parameters = ""
            }
        }
        return examples
    }

    /// The Swift files that compile the examples of `markdown`, by name.
    static func compiledFiles(for markdown: String) -> [String: String] {
        var files: [String: String] = [:]
        var imports: [String] = []
        for (index, example) in examples(in: markdown).enumerated() {
            if !example.imports.isEmpty { imports = example.imports }
            var lines = [
                "// swift-format-ignore-file",
                "// Example \(index + 1) of \(docs), the body of a function that is never called: compiling it is",
                "// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.",
                "",
            ]
            lines += imports.sorted().map { "import " + $0 }
            lines += ["", "func libraryAPIExample\(index + 1)(\(example.parameters)) async throws {"]
            lines += example.body.map { $0.isEmpty ? "" : "    " + $0 }
            lines.append("}")
            files["Example\(index + 1).swift"] = lines.joined(separator: "\n") + "\n"
        }
        return files
    }

    @Test func theCompiledExamplesAreTheDocs() throws {
        let markdown = try String(contentsOf: Self.packageRoot.appendingPathComponent(Self.docs), encoding: .utf8)
        let folder = Self.packageRoot.appendingPathComponent(Self.compiled)
        let expected = Self.compiledFiles(for: markdown)
        #expect(expected.count >= 5, "the examples of \(Self.docs) were not found")
        let present = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(Set(present) == Set(expected.keys), "\(Self.compiled) holds other examples than \(Self.docs)")
        for (name, text) in expected.sorted(by: { $0.key < $1.key }) {
            let committed = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            guard committed != text else { continue }
            let fresh = FileManager.default.temporaryDirectory.appendingPathComponent(name)
            try text.write(to: fresh, atomically: true, encoding: .utf8)
            Issue.record("\(Self.docs) and \(Self.compiled)/\(name) differ: copy \(fresh.path) there and build")
        }
    }

    @Test func anExampleTakesTheValuesNamedBeforeItsFence() {
        let markdown = """
            Text.

            <!-- compiled with: path: String -->
            ```swift
            import Conversion

            let book = try open(path)
            ```

            ```swift
            print(1)
            ```
            """
        let examples = Self.examples(in: markdown)
        #expect(
            examples == [
                Example(imports: ["Conversion"], body: ["let book = try open(path)"], parameters: "path: String"),
                Example(imports: [], body: ["print(1)"], parameters: ""),
            ])
        let files = Self.compiledFiles(for: markdown)
        #expect(files["Example1.swift"]?.contains("func libraryAPIExample1(path: String) async throws {") == true)
        #expect(
            files["Example2.swift"]?.contains("import Conversion") == true, "a fragment takes the imports before it")
    }
}
