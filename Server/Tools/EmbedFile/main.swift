import Foundation

// `EmbedFile INPUT OUTPUT NAME`: writes OUTPUT, a Swift file declaring `enum NAME` whose `bytes` are
// INPUT's, byte for byte (base64 in the source: no escaping to get wrong). Run by the
// EmbedOpenAPIDocument build plugin.
let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: EmbedFile INPUT OUTPUT NAME\n".utf8))
    exit(2)
}
do {
    let input = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let name = arguments[3]
    let source = """
        // Generated at build time from \(URL(fileURLWithPath: arguments[1]).lastPathComponent) by the
        // EmbedOpenAPIDocument plugin: do not edit.
        import Foundation

        /// \(URL(fileURLWithPath: arguments[1]).lastPathComponent), as it was when this binary was built.
        enum \(name) {
            /// The file's bytes.
            static let bytes = Data(base64Encoded: base64) ?? Data()

            private static let base64 = "\(input.base64EncodedString())"
        }

        """
    try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("EmbedFile: \(error)\n".utf8))
    exit(1)
}
