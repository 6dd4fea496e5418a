import ArgumentParser
import Foundation
import LiveConversion

/// `epub2audio voices [--json]`: the installed voices and the languages they speak.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices", abstract: "List the installed voices and their languages.")

    @Flag(help: "Print JSON: [{\"name\", \"identifier\", \"languages\"}].")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Only voices that speak this language: a tag (en, fr, pt-br...) or a name (french, deutsch...).",
            valueName: "LANG"))
    var language: String?

    func run() throws {
        let voices = LiveVoices.installed(speaking: language)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            StandardOutput.write(String(decoding: try encoder.encode(voices), as: UTF8.self) + "\n")
            return
        }
        let style = TerminalStyle.detect(fileDescriptor: 1)
        var table = TextTable([
            .init(header: "language", alignment: .left), .init(header: "voice", alignment: .left),
            .init(header: "also speaks", alignment: .left),
        ])
        for voice in voices {
            table.append([
                voice.languages.first ?? "", voice.name, voice.languages.dropFirst().joined(separator: ", "),
            ])
        }
        let lines = table.render { row, _, cell in row < 0 ? style.bold(cell) : cell }
        StandardOutput.write(lines.joined(separator: "\n") + "\n")
        StandardOutput.write(
            style.dim("\(plural(voices.count, "voice")). Use --voice with a language (en, fr, de) or a voice name.")
                + "\n")
    }
}
