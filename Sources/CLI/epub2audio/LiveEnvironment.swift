import AudioFiles
import Conversion
import ESpeakEngine

/// The composition root: the parts a conversion runs with. EPUB books are read by the library's
/// EPUB source; espeak-ng speaks (in process, one engine per process); libsndfile writes the files.
///
/// The coordinator, the `worker` subcommand and the fork server must all use it, so that a section
/// comes out the same whichever process makes it.
enum LiveEnvironment {
    /// The live parts, reusing `indexed` (the book this command already read) for the coordinator.
    static func make(reusing indexed: IndexedBook? = nil) -> ConversionEnvironment {
        .epub(
            reusing: indexed, makeEngine: { try ESpeakSpeechEngine() },
            makeSink: { request in
                try AudioFileWriter(
                    path: request.path, encoding: request.encoding, sampleRate: request.sampleRate,
                    tags: request.tags)
            })
    }
}
