import Foundation
import Testing

@testable import NeuralEngine

/// A Piper voice JSON with the keys real ones have (values of en_US-joe-medium), `overrides` replacing some.
func piperJSON(_ overrides: [String: Any] = [:], removing removed: [String] = []) throws -> Data {
    var root: [String: Any] = [
        "audio": ["sample_rate": 22050, "quality": "medium"],
        "espeak": ["voice": "en-us"],
        "inference": ["noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8],
        "phoneme_type": "espeak",
        "num_speakers": 1,
        "language": ["code": "en_US", "name_english": "English"],
        "phoneme_id_map": ["_": [0], "^": [1], "$": [2], " ": [3], "a": [14], "ə": [59]],
    ]
    for (key, value) in overrides { root[key] = value }
    for key in removed { root[key] = nil }
    return try JSONSerialization.data(withJSONObject: root)
}

@Suite struct PiperVoiceConfigTests {
    @Test func theKeysTheEngineNeedsAreRead() throws {
        let config = try PiperVoiceConfig(json: piperJSON())
        #expect(config.sampleRate == 22_050)
        #expect(config.quality == "medium")
        #expect(config.espeakVoice == "en-us")
        #expect(config.languageTag == "en-US")
        #expect(config.speakers == 1)
        #expect(config.phonemeIDs.map(\.id) == [0, 1, 2, 3, 14, 59])
        #expect(config.noiseWidth == 0.8)
    }

    @Test func sherpaOnnxMetadataNamesPiperTheRateAndTheVoice() throws {
        let metadata = Dictionary(
            uniqueKeysWithValues: try PiperVoiceConfig(json: piperJSON()).sherpaMetadata.map { ($0.key, $0.value) })
        #expect(metadata["comment"] == "piper")
        #expect(metadata["sample_rate"] == "22050")
        #expect(metadata["n_speakers"] == "1")
        #expect(metadata["language"] == "English")
        #expect(metadata["voice"] == "en-us")
        #expect(ModelCheck.metadataProblem(metadata) == nil)
    }

    @Test func missingRateIsNamed() {
        #expect(throws: PiperVoiceConfig.Reason.missing("audio.sample_rate (8000 to 96000)")) {
            try PiperVoiceConfig(json: piperJSON(["audio": ["quality": "low"]]))
        }
    }

    @Test func missingPhonemeMapIsNamed() {
        #expect(throws: PiperVoiceConfig.Reason.missing("phoneme_id_map")) {
            try PiperVoiceConfig(json: piperJSON(removing: ["phoneme_id_map"]))
        }
    }

    @Test func textPhonemeVoicesAreRefused() {
        #expect(throws: PiperVoiceConfig.Reason.unsupportedPhonemes("text")) {
            try PiperVoiceConfig(json: piperJSON(["phoneme_type": "text"]))
        }
    }

    @Test func notJSONIsSaidSo() {
        #expect(throws: PiperVoiceConfig.Reason.self) { try PiperVoiceConfig(json: Data("{oops".utf8)) }
    }

    @Test func withoutALanguageTheEspeakVoiceNamesIt() throws {
        #expect(try PiperVoiceConfig(json: piperJSON(removing: ["language"])).languageTag == "en-us")
    }

    @Test(arguments: ["sample_rate", "n_speakers", "language", "comment"])
    func metadataSherpaOnnxRequiresIsChecked(key: String) {
        var metadata = ["sample_rate": "22050", "n_speakers": "1", "language": "English", "comment": "piper"]
        metadata[key] = nil
        #expect(ModelCheck.metadataProblem(metadata)?.contains(key) == true)
    }

    @Test func aModelThatIsNotPiperIsRefused() {
        let metadata = ["sample_rate": "22050", "n_speakers": "1", "language": "English", "comment": "icefall"]
        #expect(ModelCheck.metadataProblem(metadata)?.contains("not a Piper voice") == true)
    }
}
