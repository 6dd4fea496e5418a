// neural-speak: the neural engine on its own, until the CLI wires it (phase 2 of issue 33). A developer's tool
// for trying voices by hand and for `make bench`'s neural rows; not installed, not part of the library.
//
//   NeuralSpeak add PATH [--voices-dir DIR] [--name NAME] [--espeak-data DIR] [--replace]
//   NeuralSpeak list [--voices-dir DIR]
//   NeuralSpeak say --voice NAME -f TEXT.txt -o OUT.wav [--voices-dir DIR] [--threads N] [--rate WPM]
//                   [--output-rate HZ] [--sampling reproducible|voice]
//
// `say` speaks the file paragraph by paragraph (blank lines between them) with the pauses left out, and
// prints the audio's length, the wall time and times real time to standard error.
import AudioFiles
import Contracts
import Foundation
import NeuralEngine

struct Usage: Error, CustomStringConvertible {
    let description: String
}

func options(_ arguments: ArraySlice<String>) throws -> (positional: [String], named: [String: String]) {
    var positional: [String] = []
    var named: [String: String] = [:]
    var rest = arguments
    while let argument = rest.popFirst() {
        if argument == "--replace" {
            named[argument] = "yes"
        } else if argument.hasPrefix("-") {
            guard let value = rest.popFirst() else { throw Usage(description: "\(argument) needs a value") }
            named[argument] = value
        } else {
            positional.append(argument)
        }
    }
    return (positional, named)
}

func run(_ arguments: [String]) throws {
    guard let command = arguments.dropFirst().first else {
        throw Usage(description: "usage: NeuralSpeak add PATH | list | say --voice NAME -f TEXT -o OUT.wav")
    }
    let (positional, named) = try options(arguments.dropFirst(2))
    let library = VoiceLibrary(folder: named["--voices-dir"] ?? VoiceLibrary.defaultFolder())
    switch command {
    case "add":
        guard let path = positional.first else { throw Usage(description: "add needs a PATH") }
        let voice = try library.importVoice(
            from: path, name: named["--name"], espeakData: named["--espeak-data"], replacing: named["--replace"] != nil)
        print("imported \(voice.name) (\(voice.language), \(voice.sampleRate) Hz) into \(voice.folder)")
    case "list":
        let (voices, warnings) = library.voices()
        for voice in voices {
            let megabytes = Double(VoiceLibrary.size(of: voice)) / 1_000_000
            print(
                "\(voice.name)\t\(voice.language)\t\(voice.sampleRate) Hz\t\(voice.quality)\t"
                    + String(format: "%.1f MB", megabytes))
        }
        for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    case "say":
        try say(library: library, named)
    default:
        throw Usage(description: "unknown command \(command)")
    }
}

func say(library: VoiceLibrary, _ named: [String: String]) throws {
    guard let name = named["--voice"], let input = named["-f"], let output = named["-o"] else {
        throw Usage(description: "say needs --voice NAME -f TEXT -o OUT.wav")
    }
    let sampling = named["--sampling"] == "voice" ? NeuralEngineOptions.Sampling.voiceDefaults : .reproducible
    let engineOptions = NeuralEngineOptions(
        threads: Int(named["--threads"] ?? "1") ?? 1, outputSampleRate: named["--output-rate"].flatMap { Int($0) },
        sampling: sampling)
    let start = Date()
    let engine = try NeuralSpeechEngine(voice: try library.voice(named: name), options: engineOptions)
    if let rate = named["--rate"].flatMap({ Int($0) }) {
        try engine.configure(VoiceSettings(voice: engine.voice.name, rate: rate))
    }
    let loaded = Date()
    let text = try String(contentsOfFile: input, encoding: .utf8)
    let writer = try AudioFileWriter(path: output, encoding: AudioEncoding(format: .wav), sampleRate: engine.sampleRate)
    var frames = 0
    for paragraph in text.components(separatedBy: "\n\n") where !paragraph.allSatisfy(\.isWhitespace) {
        try engine.synthesize(paragraph, language: nil) { samples in
            try writer.write(samples)
            frames += samples.count
            return true
        }
    }
    try writer.close()
    let seconds = Double(frames) / Double(engine.sampleRate)
    let wall = Date().timeIntervalSince(loaded)
    let report = String(
        format: "%.2f s of audio in %.2f s (model loaded in %.2f s): %.1f times real time\n", seconds, wall,
        loaded.timeIntervalSince(start), seconds / max(wall, 0.001))
    FileHandle.standardError.write(Data(report.utf8))
}

do {
    try run(CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("NeuralSpeak: \(error)\n".utf8))
    exit(error is Usage ? 64 : 6)
}
