import Contracts
import Foundation

extension ESpeakSpeechEngine {
    /// Finds the installed voice meant by `requested`: a voice name (`English_(America)`), a voice
    /// file (`gmw/en-US` or `en-US`), a language tag (`en-gb`, `fr_FR`, `de`), compared without
    /// regard to case and with `_` read as `-`, or a language's name in English or in the language
    /// itself (`french`, `Français`, `deutsch`: `languages(named:installed:)`) when the languages of
    /// that name have one default voice. A tag that no voice speaks exactly falls back to its
    /// primary language (`fr-CA` → a French voice). `auto` is not handled here: the caller picks a
    /// language (the book's) first.
    ///
    /// A variant may follow a `+` (`en-us+f3`, as the `espeak-ng` command accepts): it must be one
    /// of `variants`, and the result's name and identifier carry it.
    ///
    /// - Throws: `SpeechError.unknownVoice` with up to five closest installed names and languages,
    ///   the voices of a language whose name is close first (`frnch` → the French voices), or the
    ///   variants, when the variant is the unknown part.
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
        let named = languages(named: key, installed: installed)
        var defaults: [VoiceInfo] = []
        for language in named {
            if let voice = voice(forLanguage: language, installed: installed), !defaults.contains(voice) {
                defaults.append(voice)
            }
        }
        if defaults.count == 1 { return defaults[0] }
        throw SpeechError.unknownVoice(requested: requested, suggestions: suggestions(for: key, installed: installed))
    }

    /// The primary languages the installed voices speak (`fr`, `de`, `pt`, as the voices list them)
    /// whose name is `name`: in English or in the language itself ("french", "Français", "deutsch",
    /// "Portuguese"), compared without regard to case, accents, or spaces and `_`. The names come
    /// from the system's locale data (ICU, through Foundation); a language it has no name for is
    /// found by its tag only.
    public static func languages(named name: String, installed: [VoiceInfo]) -> [String] {
        let key = folded(name)
        guard !key.isEmpty, key.count <= longestSuggestedKey else { return [] }
        return primaryLanguages(installed).filter { languageNames($0).contains(key) }
    }

    /// The voices that speak `language`: a language tag (`pt` takes `pt-br` too) or a language's
    /// name (`languages(named:installed:)`), in the order given.
    public static func voices(speaking language: String, installed: [VoiceInfo]) -> [VoiceInfo] {
        let wanted = normalized(language)
        let named = Set(languages(named: language, installed: installed))
        return installed.filter { voice in
            voice.languages.map(normalized).contains {
                $0 == wanted || $0.hasPrefix(wanted + "-") || named.contains(primaryLanguage($0))
            }
        }
    }

    /// The primary subtags of the languages the installed voices list, once each, in their order.
    private static func primaryLanguages(_ installed: [VoiceInfo]) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for voice in installed {
            for language in voice.languages {
                let primary = primaryLanguage(language)
                if isLanguageTag(primary), seen.insert(primary).inserted { out.append(primary) }
            }
        }
        return out
    }

    /// The names of primary language `code`, folded: in English, and in the language itself.
    static func languageNames(_ code: String) -> Set<String> {
        let names = [
            Locale(identifier: "en").localizedString(forLanguageCode: code),
            Locale(identifier: code).localizedString(forLanguageCode: code),
        ]
        // ICU answers a code it does not know with the code itself: no name.
        return Set(names.compactMap { $0 }.map(folded).filter { !$0.isEmpty && $0 != code })
    }

    /// `text` as names are compared: lower case, without accents, `_` and spaces as `-`.
    static func folded(_ text: String) -> String {
        normalized(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
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

    /// Installed names and language tags closest to `key`, at most five: first the voices of the
    /// languages whose name is close to it (`frnch`, `deutch`, `portugese`: one or two letters
    /// apart, or a name it starts), then names and tags by prefix, then by edit distance, only
    /// reasonably close ones.
    private static func suggestions(for key: String, installed: [VoiceInfo]) -> [String] {
        // No installed name is near a key this long, and the distances would cost its length times
        // theirs for every one.
        guard key.count <= longestSuggestedKey else { return [] }
        let byLanguage = voicesOfLanguages(near: key, installed: installed).map(\.name)
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
        let close = scored.filter { $0.1 <= limit }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.count != $1.0.count ? $0.0.count < $1.0.count : $0.0 < $1.0 }
            .map(\.0)
        var out: [String] = []
        for name in byLanguage + close where !out.contains(name) { out.append(name) }
        return Array(out.prefix(5))
    }

    /// The voices whose first language is one whose name is close to `key` (`languageNames`), the
    /// language's default voice first; the closest languages first.
    private static func voicesOfLanguages(near key: String, installed: [VoiceInfo]) -> [VoiceInfo] {
        let folded = folded(key)
        guard folded.count >= 3 else { return [] }
        let limit = max(1, folded.count / 4)
        let near = primaryLanguages(installed).compactMap { code -> (code: String, distance: Int)? in
            let distances = languageNames(code).map { name -> Int in
                name.hasPrefix(folded) || folded.hasPrefix(name) ? 0 : editDistance(folded, name)
            }
            guard let best = distances.min(), best <= limit else { return nil }
            return (code, best)
        }.sorted { $0.distance < $1.distance }
        var out: [VoiceInfo] = []
        for (code, _) in near {
            let speakers = installed.filter { $0.languages.first.map(primaryLanguage) == code }
            let preferred = voice(forLanguage: code, installed: installed).map { [$0] } ?? []
            for voice in preferred + speakers where !out.contains(voice) { out.append(voice) }
        }
        return out
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
