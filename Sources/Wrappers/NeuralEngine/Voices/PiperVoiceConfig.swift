import Foundation

/// A Piper voice's `NAME.onnx.json`: what the engine and the voice list need of it.
///
/// Tolerant: unknown keys are ignored and every key but the phoneme map has a default, so voices written by
/// other Piper versions still import; what is missing is named in the error.
struct PiperVoiceConfig: Sendable, Equatable {
    /// Samples per second the model produces (`audio.sample_rate`).
    var sampleRate: Int
    /// Piper's quality name (`audio.quality`: x_low, low, medium, high), empty when absent.
    var quality: String
    /// The espeak-ng voice that phonemises the text (`espeak.voice`, e.g. `en-us`).
    var espeakVoice: String
    /// The language as Piper names it (`language.code`, e.g. `en_US`), empty when absent.
    var languageCode: String
    /// The language's English name (`language.name_english`), what sherpa-onnx's `language` metadata holds.
    var languageName: String
    /// Speakers in the model (`num_speakers`).
    var speakers: Int
    /// Phoneme (one Unicode scalar) to its model id: the first id of each `phoneme_id_map` entry.
    var phonemeIDs: [(phoneme: String, id: Int)]
    /// The model's recommended sampling (`inference`), kept for the record: the engine does not use it
    /// (see `NeuralEngineOptions.Sampling`).
    var noiseScale: Double
    var noiseWidth: Double
    var lengthScale: Double

    static func == (lhs: PiperVoiceConfig, rhs: PiperVoiceConfig) -> Bool {
        lhs.sampleRate == rhs.sampleRate && lhs.quality == rhs.quality && lhs.espeakVoice == rhs.espeakVoice
            && lhs.languageCode == rhs.languageCode && lhs.languageName == rhs.languageName
            && lhs.speakers == rhs.speakers && lhs.phonemeIDs.elementsEqual(rhs.phonemeIDs, by: { $0 == $1 })
            && lhs.noiseScale == rhs.noiseScale && lhs.noiseWidth == rhs.noiseWidth
            && lhs.lengthScale == rhs.lengthScale
    }

    /// The largest JSON read (a real one is about 5 KB).
    static let maximumBytes = 1 << 20

    /// Parses the JSON; `Reason` says what is missing or wrong.
    init(json data: Data) throws(Reason) {
        guard data.count <= Self.maximumBytes else { throw .tooLarge }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw Reason.notJSON("not a JSON object")
            }
            root = object
        } catch let error as Reason {
            throw error
        } catch {
            throw .notJSON("\(error.localizedDescription)")
        }
        let audio = root["audio"] as? [String: Any] ?? [:]
        guard let rate = Self.integer(audio["sample_rate"]), (8_000...96_000).contains(rate) else {
            throw .missing("audio.sample_rate (8000 to 96000)")
        }
        guard let map = root["phoneme_id_map"] as? [String: Any], !map.isEmpty else {
            throw .missing("phoneme_id_map")
        }
        var ids: [(String, Int)] = []
        for (phoneme, value) in map {
            guard let list = value as? [Any], let first = list.first.flatMap(Self.integer), first >= 0 else {
                throw .missing("an id for phoneme '\(phoneme)' in phoneme_id_map")
            }
            ids.append((phoneme, first))
        }
        let type = root["phoneme_type"] as? String ?? "espeak"
        guard type == "espeak" else { throw .unsupportedPhonemes(type) }
        let language = root["language"] as? [String: Any] ?? [:]
        let inference = root["inference"] as? [String: Any] ?? [:]
        sampleRate = rate
        quality = audio["quality"] as? String ?? ""
        espeakVoice = (root["espeak"] as? [String: Any])?["voice"] as? String ?? ""
        guard !espeakVoice.isEmpty else { throw .missing("espeak.voice") }
        languageCode = language["code"] as? String ?? ""
        languageName = language["name_english"] as? String ?? espeakVoice
        speakers = max(1, Self.integer(root["num_speakers"]) ?? 1)
        phonemeIDs = ids.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        noiseScale = Self.double(inference["noise_scale"]) ?? 0.667
        noiseWidth = Self.double(inference["noise_w"]) ?? 0.8
        lengthScale = Self.double(inference["length_scale"]) ?? 1
    }

    /// The language as a BCP 47 tag (`en_US` → `en-US`), from `language.code`, else from the espeak voice.
    var languageTag: String {
        let code = languageCode.isEmpty ? espeakVoice : languageCode
        return code.replacingOccurrences(of: "_", with: "-")
    }

    /// The metadata sherpa-onnx 1.13.8 reads from a Piper model (`OfflineTtsVitsModel`): `comment` containing
    /// "piper" selects Piper's phoneme ids; `sample_rate`, `n_speakers` and `language` are required (a missing
    /// one ends the process); `voice` is the espeak-ng voice that phonemises. The rest is what sherpa-onnx's
    /// own `scripts/piper/add_meta_data.py` writes.
    var sherpaMetadata: [(key: String, value: String)] {
        [
            ("model_type", "vits"), ("comment", "piper"), ("language", languageName), ("voice", espeakVoice),
            ("has_espeak", "1"), ("n_speakers", String(speakers)), ("sample_rate", String(sampleRate)),
        ]
    }

    /// What is wrong with a voice's JSON.
    enum Reason: Error, Equatable, CustomStringConvertible {
        case tooLarge
        case notJSON(String)
        case missing(String)
        case unsupportedPhonemes(String)

        var description: String {
            switch self {
            case .tooLarge: "it is over 1 MiB"
            case .notJSON(let why): "it is not valid JSON (\(why))"
            case .missing(let what): "it has no \(what)"
            case .unsupportedPhonemes(let type):
                "its phoneme_type is '\(type)'; only 'espeak' voices are supported (sherpa-onnx 1.13.8 phonemises with espeak-ng)"
            }
        }
    }

    private static func integer(_ value: Any?) -> Int? {
        if let number = value as? NSNumber, let exact = Int(exactly: number.doubleValue) { return exact }
        return nil
    }

    private static func double(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }
}
