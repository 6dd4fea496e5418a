// swift-format-ignore-file
// Example 2 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import AudioFiles
import BookText
import Contracts
import Conversion
import EPUBReader
import ESpeakEngine
import Foundation
import TagEditing

func libraryAPIExample2() async throws {
    // The composition root: EPUB books, espeak-ng, libsndfile (what LiveEnvironment.make() does); tests
    // build their own environment from a fake engine and an in-memory source.
    let environment = ConversionEnvironment.epub(
        makeEngine: { try ESpeakSpeechEngine() },
        makeSink: { try AudioFileWriter(path: $0.path, encoding: $0.encoding, sampleRate: $0.sampleRate, tags: $0.tags) })

    // Whether this libsndfile writes Opus at all (a short file written and read back in memory): the
    // CLI checks the one format asked for before it starts, and exits with status 6 when it cannot.
    guard AudioFileWriter.canWrite(.opus) else { print("this libsndfile writes no Opus"); exit(6) }

    var request = ConversionRequest(
        bookPath: "moby-dick.epub",
        outputDirectory: "moby-dick-audio",
        selection: .planned,                       // or .all, or .numbers([3, 4, 5])
        voice: VoiceSettings(voice: "en-gb", rate: 170),
        encoding: AudioEncoding(format: .opus, compressionLevel: 0.7),
        bookOptions: BookOptions(text: SpokenTextOptions(notes: .end)),
        jobs: ProcessInfo.processInfo.activeProcessorCount)
    request.workerExecutable = "/proc/self/exe"    // the CLI: itself, with the hidden `worker` subcommand
    request.workerArguments = ["worker"]
    request.cover = AudiobookCover(book: try EPUBBook.open(path: "moby-dick.epub"))  // in every section file but WAV
    // Track numbers are i/N among the folder's section files; a caller that makes each section in a
    // folder of its own (the service) names the album's sections: request.trackSections = [2, 3, 4, 5]

    let converter = Converter(environment: environment)
    let task = Task {
        do {
            for try await event in converter.convert(request) {
                switch event {
                case .bookStarted(let title, let sections, let words):
                    print("\(title): \(sections) sections, \(words) words")
                case .progress(let section, let done, let total, _):
                    print("section \(section): \(done)/\(total) words")
                case .sectionDone(let section, let file, let seconds, _, _, let skipped):
                    print("\(section) → \(file) (\(Int(seconds)) s\(skipped ? ", already done" : ""))")
                case .warning(let message):
                    print("warning: \(message)")
                case .error(let section, let message):
                    print("error in section \(section.map(String.init) ?? "-"): \(message)")
                case .bookDone(let summary):
                    print("\(summary.sectionsDone) made, \(summary.sectionsSkipped) already done, \(summary.sectionsFailed) failed")
                case .bundleProgress, .bundleDone:  // only from a bundler (AudiobookBundler, --bundle)
                    break
                case .sectionStarted:
                    break
                }
            }
        } catch let error as ConversionError {
            print("stopped: \(error)")            // readable: names the path, section, reason
        }
    }

    // Cancellation: cancel the task that iterates (Ctrl-C handler, UI button...).
    task.cancel()
}
