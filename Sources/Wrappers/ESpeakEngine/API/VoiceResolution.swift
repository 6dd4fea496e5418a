import Contracts
import Foundation

extension ESpeakSpeechEngine {
    /// Finds the installed voice meant by `requested`: a voice name (`English_(America)`), a voice
    /// file (`gmw/en-US` or `en-US`), or a language tag (`en-gb`, `fr_FR`, `de`), compared without
    /// regard to case and with `_` read as `-`. A tag that no voice speaks exactly falls back to its
    /// primary language (`fr-CA` → a French voice). `auto` is not handled here: the caller picks a
    /// language (the book's) first.
    ///
    /// A variant may follow a `+` (`en-us+f3`, as the `espeak-ng` command accepts): it must be one
    /// of `variants`, and the result's name and identifier carry it.
    ///
    /// - Throws: `SpeechError.unknownVoice` with up to five closest installed names and languages
    ///   (or variants, when the variant is the unknown part).
    public static func resolveVoice(
        _ requested: String, installed: [VoiceInfo], variants: [String] = []
    ) throws -> VoiceInfo {
        if let plus = requested.firstIndex(of: "+") {
            let base = try resolveVoice(String(requested[..<plus]), installed: installed)
            let wanted = normalized(String(requested[requested.index(after: plus)...]))
            guard let variant = variants.first(where: { normalized($0) == wanted }) else {
                let close = variants.filter {
                    normalized($0).hasPrefix(wanted) || editDistance(normalized($0), wanted) <= 2
                }
                throw SpeechError.unknownVoice(
                    requested: requested, suggestions: close.prefix(5).map { "\(requested[..<plus])+\($0)" })
            }
            return VoiceInfo(
                name: "\(base.name)+\(variant)", languages: base.languages, identifier: "\(base.identifier)+\(variant)")
        }
        let key = normalized(requested)
        guard !key.isEmpty else { throw SpeechError.unknownVoice(requested: requested, suggestions: []) }
        if let voice = installed.first(where: { normalized($0.name) == key }) { return voice }
        if let voice = installed.first(where: {
            normalized($0.identifier) == key || normalized(fileName($0.identifier)) == key
        }) {
            return voice
        }
        if let voice = voice(forLanguage: key, installed: installed) { return voice }
        throw SpeechError.unknownVoice(requested: requested, suggestions: suggestions(for: key, installed: installed))
    }

    /// The preferred installed voice for a language tag: espeak-ng's own voice for it (the voice file
    /// named after the tag, `gmw/en` for `en`), else one that lists the tag itself (the voice that lists
    /// it first wins), else the same for its primary language (`fr-CA` → `roa/fr`).
    ///
    /// The file name comes first because several regional voices list the bare tag as well (English
    /// (Caribbean) lists `en`, French (Belgium) lists `fr`) and espeak-ng lists them before the default.
    static func voice(forLanguage tag: String, installed: [VoiceInfo]) -> VoiceInfo? {
        let key = normalized(tag)
        func own(_ tag: String) -> VoiceInfo? {
            installed.first {
                normalized(fileName($0.identifier)) == tag && $0.languages.contains { normalized($0) == tag }
            }
        }
        if let voice = own(key) { return voice }
        func best(_ matches: (String) -> Bool) -> VoiceInfo? {
            var found: (voice: VoiceInfo, rank: Int)?
            for voice in installed {
                guard let rank = voice.languages.map(normalized).firstIndex(where: matches) else { continue }
                if found == nil || rank < found!.rank { found = (voice, rank) }
            }
            return found?.voice
        }
        if let exact = best({ $0 == key }) { return exact }
        let primary = primaryLanguage(key)
        guard isLanguageTag(key) else { return nil }
        return own(primary) ?? best({ $0 == primary }) ?? best({ primaryLanguage($0) == primary })
    }

    /// Whether `tag` (normalised) has the shape of a language tag whose primary language can stand
    /// for it: a language of 2–3 letters, then at most a script (`Hant`), a region (`CA`, `419`) and a
    /// year variant (`1996`). "no-such-voice" is no tag, so it never falls back to Norwegian.
    static func isLanguageTag(_ tag: String) -> Bool {
        var subtags = tag.split(separator: "-", omittingEmptySubsequences: false)[...]
        guard let language = subtags.popFirst(), (2...3).contains(language.count), language.allSatisfy(\.isLetter)
        else { return false }
        if let script = subtags.first, script.count == 4, script.allSatisfy(\.isLetter) { subtags.removeFirst() }
        if let region = subtags.first,
            (region.count == 2 && region.allSatisfy(\.isLetter)) || (region.count == 3 && region.allSatisfy(\.isNumber))
        {
            subtags.removeFirst()
        }
        if let variant = subtags.first, variant.count == 4, variant.allSatisfy(\.isNumber) { subtags.removeFirst() }
        return subtags.isEmpty
    }

    /// The primary language subtag, lower case: `fr` for `fr-CA`.
    static func primaryLanguage(_ tag: String) -> String {
        String(normalized(tag).prefix { $0 != "-" })
    }

    static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
            .replacingOccurrences(of: " ", with: "-")
    }

    static func fileName(_ identifier: String) -> String {
        String(identifier.split(separator: "/").last ?? Substring(identifier))
    }

    /// Installed names and language tags closest to `key`: prefix matches first, then by edit
    /// distance, at most five, only reasonably close ones.
    private static func suggestions(for key: String, installed: [VoiceInfo]) -> [String] {
        // No installed name is near a key this long, and the distances would cost its length times
        // theirs for every one.
        guard key.count <= longestSuggestedKey else { return [] }
        var candidates: [String] = []
        for voice in installed {
            for option in [voice.name] + voice.languages where !candidates.contains(option) {
                candidates.append(option)
            }
        }
        let scored = candidates.map { candidate -> (String, Int) in
            let other = normalized(candidate)
            if other.hasPrefix(key) { return (candidate, 0) }
            // A typo in the start of a long name ("englsh" for "English_(America)") counts as close.
            let startDistance = editDistance(key, String(other.prefix(key.count)))
            return (candidate, min(editDistance(key, other), startDistance))
        }
        let limit = max(2, key.count / 2)
        return scored.filter { $0.1 <= limit }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.count != $1.0.count ? $0.0.count < $1.0.count : $0.0 < $1.0 }
            .prefix(5).map(\.0)
    }

    /// The longest name suggestions are looked for: installed voice names are under 40 characters.
    static let longestSuggestedKey = 64

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
