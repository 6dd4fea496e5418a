import ArgumentParser
import Foundation
import LiveConversion

/// `epub2audio voices [--json]` lists the installed voices; `epub2audio voices add PATH` imports a neural voice.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices", abstract: "List the installed voices and their languages, or add a neural voice.",
        subcommands: [VoicesListCommand.self, VoicesAddCommand.self], defaultSubcommand: VoicesListCommand.self)
}

/// Where the neural voices are: `--voices-dir`, else `$EPUB2AUDIO_VOICES_DIR`, else the XDG data folder.
struct VoicesFolderOption: ParsableArguments {
    @Option(
        name: .customLong("voices-dir"),
        help: ArgumentHelp(
            "The neural voices folder (default: $EPUB2AUDIO_VOICES_DIR, else $XDG_DATA_HOME/epub2audio/voices, "
                + "else ~/.local/share/epub2audio/voices).",
            valueName: "DIR"))
    var voicesDir: String?

    /// The folder.
    var folder: String { LiveVoices.neuralFolder(voicesDir) }
}

/// `epub2audio voices [--json] [--language LANG]`: espeak-ng's voices, then the neural voices.
struct VoicesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the installed voices and their languages (the default).")

    @Flag(
        help: """
            Print JSON: [{"name", "identifier", "languages"}]; neural voices add "engine": "neural", \
            "sampleRate" and "quality".
            """)
    var json = false

    @Option(
        help: ArgumentHelp(
            "Only voices that speak this language: a tag (en, fr, pt-br...) or a name (french, deutsch...).",
            valueName: "LANG"))
    var language: String?

    @OptionGroup var voicesFolder: VoicesFolderOption

    func run() throws {
        let voices = LiveVoices.installed(speaking: language)
        let (listed, warnings) = LiveVoices.neural(in: voicesFolder.folder, speaking: language)
        for warning in warnings { StandardError.write("warning: \(oneLine(warning))\n") }
        if json {
            let entries = voices.map(ListedVoice.init) + listed.map(ListedVoice.init)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            StandardOutput.write(String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n")
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
        if !listed.isEmpty { StandardOutput.write(neuralTable(listed, style: style)) }
        StandardOutput.write(
            style.dim(
                "\(plural(voices.count + listed.count, "voice")). Use --voice with a language (en, fr, de) or a voice name."
            )
                + "\n")
    }

    /// The neural voices: name, language, sample rate, quality.
    private func neuralTable(_ voices: [NeuralVoiceSummary], style: TerminalStyle) -> String {
        var table = TextTable([
            .init(header: "neural voice", alignment: .left), .init(header: "language", alignment: .left),
            .init(header: "sample rate", alignment: .right), .init(header: "quality", alignment: .left),
        ])
        for voice in voices {
            table.append([voice.name, voice.language, "\(voice.sampleRate) Hz", voice.quality])
        }
        let lines = table.render { row, _, cell in row < 0 ? style.bold(cell) : cell }
        return "\n" + lines.joined(separator: "\n") + "\n"
    }
}

/// One entry of `voices --json`: espeak-ng's keys, and for a neural voice its engine, rate and quality.
private struct ListedVoice: Encodable {
    var name: String
    var identifier: String
    var languages: [String]
    var engine: String?
    var sampleRate: Int?
    var quality: String?

    init(_ voice: VoiceInfo) {
        name = voice.name
        identifier = voice.identifier
        languages = voice.languages
    }

    init(_ voice: NeuralVoiceSummary) {
        name = voice.name
        identifier = voice.identifier
        languages = [voice.language.lowercased()]
        engine = "neural"
        sampleRate = voice.sampleRate
        quality = voice.quality
    }
}

/// `epub2audio voices add PATH`: imports a Piper voice or a sherpa-onnx model folder into the voices folder.
struct VoicesAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Import a neural voice: a Piper NAME.onnx (with NAME.onnx.json beside it) or a sherpa-onnx folder.")

    @Argument(help: ArgumentHelp("The voice's .onnx file, or its folder.", valueName: "PATH"))
    var path: String

    @Option(help: ArgumentHelp("Install it under this name (default: the model's file name).", valueName: "NAME"))
    var name: String?

    @Flag(help: "Replace an installed voice of the same name.")
    var replace = false

    @OptionGroup var voicesFolder: VoicesFolderOption

    func run() throws {
        do {
            let voice = try LiveVoices.addNeural(
                from: path, into: voicesFolder.folder, name: name, replacing: replace)
            StandardOutput.write(
                "added \(voice.name) (\(voice.language), \(voice.sampleRate) Hz, \(voice.quality)) to "
                    + "\(voicesFolder.folder). Use --voice \(voice.name)\n")
        } catch {
            let (status, message) = exitStatus(for: error)
            StandardError.write("error: \(oneLine(message))\n")
            throw ExitCode(status.rawValue)
        }
    }
}
