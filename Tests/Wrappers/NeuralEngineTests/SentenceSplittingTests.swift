import Testing

@testable import NeuralEngine

@Suite struct SentenceSplittingTests {
    @Test func aChunkIsSpokenSentenceBySentence() {
        #expect(
            NeuralSpeechEngine.sentences(of: "It rained. Mr. Grey came in! Was he wet?") == [
                "It rained.", "Mr. Grey came in!", "Was he wet?",
            ])
    }

    @Test func aSentenceWithoutPunctuationForPagesIsCutAtSpaces() {
        let words = Array(repeating: "lighthouse", count: 200).joined(separator: " ")
        let pieces = NeuralSpeechEngine.sentences(of: words)
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.count <= NeuralSpeechEngine.maximumSentenceCharacters })
        #expect(pieces.joined(separator: " ") == words)
    }

    /// The sentence marks name where each piece the model speaks is in the text (UTF-16 offsets).
    @Test func eachPieceKnowsWhereItIsInTheText() {
        let long = Array(repeating: "lighthouse", count: 200).joined(separator: " ")
        let text = "It rained. 😀 Mr. Grey came in! " + long + "."
        let units = Array(text.utf16)
        let pieces = NeuralSpeechEngine.sentencePieces(of: text)
        #expect(pieces.count > 3)
        for piece in pieces {
            #expect(String(decoding: units[piece.range], as: UTF16.self) == piece.text)
        }
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound })
    }

    @Test func oneWordLongerThanTheLimitIsCutInside() {
        let word = String(repeating: "a", count: NeuralSpeechEngine.maximumSentenceCharacters + 10)
        #expect(NeuralSpeechEngine.bounded(word).map(\.count) == [NeuralSpeechEngine.maximumSentenceCharacters, 10])
    }

    @Test func nulBecomesASpaceAndNothingSpeakableIsDropped() {
        #expect(NeuralSpeechEngine.sentences(of: "One\0two. … — !") == ["One two."])
    }

    @Test func pcmRoundsClipsAndSilencesNaN() {
        let floats: [Float] = [0, 0.5, -1, 2, -2, .nan, 1 / 65_534]
        let pcm = floats.withUnsafeBufferPointer { NeuralSpeechEngine.pcm($0, gain: 1) }
        #expect(pcm == [0, 16_384, -32_767, 32_767, -32_768, 0, 1])
        let quiet = floats.withUnsafeBufferPointer { NeuralSpeechEngine.pcm($0, gain: 0.5) }
        #expect(quiet[1] == 8_192)
    }
}
