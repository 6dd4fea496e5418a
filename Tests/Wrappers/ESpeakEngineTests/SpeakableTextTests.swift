import Testing

@testable import ESpeakEngine

/// What espeak-ng is given for a text (`ESpeakSpeechEngine.speakableBytes`), without the engine.
@Suite struct SpeakableTextTests {
    static func given(_ text: String) -> String {
        let bytes = ESpeakSpeechEngine.speakableBytes(text)
        #expect(bytes.last == 0)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    @Test func aNULInsideBecomesASpace() {
        #expect(Self.given("one\u{0}two") == "one two")
        #expect(Self.given("é\u{0}è") == "é è")
    }

    @Test func combiningMarksPastThirtyInARowAreDropped() {
        // espeak-ng takes time quadratic in a run of marks; past a real letter's few they add no sound.
        let marks = String(repeating: "\u{301}", count: 1_000)
        #expect(Self.given("a\(marks) b") == "a" + String(repeating: "\u{301}", count: 30) + " b")
        // A letter's own marks, and text in scripts made of marks, are left as they are.
        for text in ["ệ ǘ", "e\u{323}\u{302}", "नमस्ते दुनिया", "Ελληνικά", "a\u{301}\u{301}b"] {
            #expect(Self.given(text) == text)
        }
    }
}
