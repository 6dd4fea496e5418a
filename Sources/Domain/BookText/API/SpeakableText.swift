import Contracts

/// What a voice can say of the sections a conversion reads: the letters it would only name or spell
/// ("Chinese letter" for every kanji under espeak-ng's Japanese voice, English pinyin with tone
/// digits for most Chinese characters under its `cmn`), the runs of other scripts another installed
/// voice reads instead (`ScriptSwitching`), and whether the book is worth converting at all.
///
/// Pure: how well a voice speaks a script comes from the caller (`share`: the engine is asked, e.g.
/// `ESpeakSpeechEngine.share(of:spokenBy:)`), so the CLI and the service decide the same way.
public enum SpeakableText {
    /// A voice speaks a script when it reads at least this share of it as language. High enough
    /// that `cmn-latn-pinyin`, which reads one English word in six as pinyin, hands Latin runs to
    /// English.
    public static let speaksShare = 0.9
    /// Text a voice cannot speak is warned about from this share of the letters read...
    public static let warningShare = 0.01
    /// ...and from this many letters (a foreign word or two is no reason to warn).
    public static let warningLetters = 50
    /// Above this share of the letters read, the conversion is refused unless forced: most of the
    /// audio would be names of characters.
    public static let refusalShare = 0.5

    /// How well a voice reads a script: the share of its letters the voice speaks as language, 0...1.
    public typealias Share = (VoiceInfo, Script) -> Double

    /// Assesses `voice` on the sections `included`, switching runs of scripts it cannot speak to the
    /// best installed voice for them.
    ///
    /// - Parameters:
    ///   - sections: the book's sections; only those included are assessed.
    ///   - voice: the voice the book is read in.
    ///   - installed: the voices a run may switch to.
    ///   - bookLanguage: the language the book is read in; a Chinese one is preferred for runs of
    ///     Chinese characters.
    ///   - share: how well a voice reads a script (the engine knows, this type does not).
    /// - Returns: the share of the text the voice cannot speak, where, and the switches made.
    public static func assess(
        _ sections: [BookSection], voice: VoiceInfo, installed: [VoiceInfo], bookLanguage: String?, share: Share
    ) -> SpeakableTextReport {
        let reading = language(of: voice)
        let read = sections.filter(\.included)
        var census = ScriptCensus()
        for section in read { census.add(section.letters) }
        var memo: [String: Double] = [:]
        func cachedShare(_ voice: VoiceInfo, _ script: Script) -> Double {
            if let known = assumedShare(voice, script) { return known }
            let key = "\(voice.identifier)|\(script.rawValue)"
            if let known = memo[key] { return known }
            let value = share(voice, script)
            memo[key] = value
            return value
        }
        let targets = switchTargets(
            census, voice: voice, installed: installed, bookLanguage: bookLanguage, share: cachedShare)
        var report = SpeakableTextReport(voice: voice, totalLetters: census.total)
        if !targets.isEmpty {
            report.switching = ScriptSwitching(
                voiceLanguage: reading, targets: targets.mapValues { tag(for: $0) })
        }
        var unspeakable = ScriptCensus()
        for section in read {
            var lost = 0
            for (script, count) in section.letters.counts {
                let reader = self.reader(of: script, in: section.letters, voice: voice, targets: targets)
                if reader != voice { report.switchedTo[name(of: reader), default: []].insert(script) }
                let missing = Int((Double(count) * (1 - cachedShare(reader, script))).rounded())
                guard missing > 0 else { continue }
                lost += missing
                unspeakable.add(missing, of: script)
            }
            if lost > 0, Double(lost) >= warningShare * Double(max(1, section.letters.total)) {
                report.sections.append(section.number)
            }
        }
        report.unspeakable = unspeakable
        report.suggestedVoice = suggestion(
            for: unspeakable, voice: voice, installed: installed, share: cachedShare)
        return report
    }

    /// The voice `--voice auto` should read in, of the installed voices of `chosen`'s language: the
    /// one that leaves the fewest letters of the sections read unspoken (`chosen` among equals).
    /// espeak-ng's `cmn` reads most Chinese characters as English pinyin; its `cmn-latn-pinyin` reads
    /// them all.
    public static func preferredVoice(
        _ chosen: VoiceInfo, for sections: [BookSection], installed: [VoiceInfo], share: Share
    ) -> VoiceInfo {
        var census = ScriptCensus()
        for section in sections where section.included { census.add(section.letters) }
        let primary = Script.primaryLanguage(language(of: chosen))
        let own = census.counts.filter { $0.key.isWritten(byLanguage: primary) }
        guard !own.isEmpty else { return chosen }
        func lost(_ voice: VoiceInfo) -> Double {
            own.reduce(0) { $0 + Double($1.value) * (1 - (assumedShare(voice, $1.key) ?? share(voice, $1.key))) }
        }
        var best = (voice: chosen, lost: lost(chosen))
        guard best.lost > 0 else { return chosen }
        for voice in installed where voice != chosen && Script.primaryLanguage(language(of: voice)) == primary {
            let candidate = lost(voice)
            if candidate < best.lost { best = (voice, candidate) }
        }
        return best.voice
    }

    /// 1 for Latin and a voice of a language written in Latin, without asking: every such voice of
    /// espeak-ng reads it, and a book in Latin letters then costs no engine start (`--list`).
    static func assumedShare(_ voice: VoiceInfo, _ script: Script) -> Double? {
        script == .latin && script.isWritten(byLanguage: language(of: voice)) ? 1 : nil
    }

    // MARK: - Steps

    /// For each script of `census` the voice's language does not write and the voice cannot speak,
    /// the installed voice that speaks it best, if one speaks it.
    static func switchTargets(
        _ census: ScriptCensus, voice: VoiceInfo, installed: [VoiceInfo], bookLanguage: String?, share: Share
    ) -> [Script: VoiceInfo] {
        let reading = language(of: voice)
        var targets: [Script: VoiceInfo] = [:]
        for script in census.scripts where !script.isWritten(byLanguage: reading) {
            guard share(voice, script) < speaksShare else { continue }
            var languages = script.languages
            if script == .han, let book = bookLanguage.map(Script.primaryLanguage), languages.contains(book) {
                languages.insert(book, at: 0)
            }
            if let target = firstVoice(speaking: script, languages: languages, except: reading, installed, share) {
                targets[script] = target
            }
        }
        return targets
    }

    /// The first installed voice of `languages` (in their order, each language's own voice first)
    /// that speaks `script`, leaving out voices of the primary language `except`: the engine does not
    /// switch between voices of one language.
    static func firstVoice(
        speaking script: Script, languages: [String], except: String, _ installed: [VoiceInfo], _ share: Share
    ) -> VoiceInfo? {
        let excluded = Script.primaryLanguage(except)
        for wanted in languages where wanted != excluded {
            let candidates = installed.filter { Script.primaryLanguage(language(of: $0)) == wanted }
                .sorted { isOwnVoice($0, of: wanted) && !isOwnVoice($1, of: wanted) }
            if let found = candidates.first(where: { share($0, script) >= speaksShare }) { return found }
        }
        return nil
    }

    /// The voice that reads letters of `script` in a section whose letters are `letters`: the
    /// configured one for scripts its language writes, else the voice a run of them switches to.
    static func reader(
        of script: Script, in letters: ScriptCensus, voice: VoiceInfo, targets: [Script: VoiceInfo]
    ) -> VoiceInfo {
        guard !script.isWritten(byLanguage: language(of: voice)) else { return voice }
        var deciding = script
        if script.family == .han {
            // A run of Chinese characters and kana is Japanese (`ScriptSwitching`): with kana about,
            // the kanji go where the kana go.
            if letters[.hiragana] > 0 || letters[.katakana] > 0 {
                deciding = letters[.hiragana] >= letters[.katakana] ? .hiragana : .katakana
            } else if letters[.hangul] > 0 {
                deciding = .hangul
            }
        }
        return targets[deciding] ?? voice
    }

    /// A voice that speaks what `voice` cannot, of its own language: `cmn-latn-pinyin` for `cmn`.
    static func suggestion(
        for unspeakable: ScriptCensus, voice: VoiceInfo, installed: [VoiceInfo], share: Share
    ) -> String? {
        guard let worst = unspeakable.counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else {
            return nil
        }
        let primary = Script.primaryLanguage(language(of: voice))
        return installed.first {
            $0 != voice && Script.primaryLanguage(language(of: $0)) == primary && share($0, worst) >= speaksShare
        }.map(name(of:))
    }

    // MARK: - Voices

    /// The language a voice reads in: its first language, else its file name.
    static func language(of voice: VoiceInfo) -> String {
        voice.languages.first ?? name(of: voice)
    }

    /// What a user and the engine call the voice: the last part of its identifier (`cmn-Latn-pinyin`
    /// for `sit/cmn-Latn-pinyin`), which `--voice` accepts.
    public static func name(of voice: VoiceInfo) -> String {
        String(voice.identifier.split(separator: "/").last ?? Substring(voice.identifier))
    }

    /// The tag a chunk carries to switch to `voice`: its file name, which is a language tag too
    /// (`ja`, `el`, `cmn-Latn-pinyin`) and names that very voice.
    static func tag(for voice: VoiceInfo) -> String {
        name(of: voice)
    }

    private static func isOwnVoice(_ voice: VoiceInfo, of language: String) -> Bool {
        name(of: voice).lowercased() == language
    }
}

/// What `SpeakableText.assess` found: how much of the text read the voice cannot speak, where, and
/// which voices read the runs of other scripts.
public struct SpeakableTextReport: Sendable, Hashable, Encodable {
    /// The voice assessed.
    public var voice: VoiceInfo
    /// Letters in the sections read.
    public var totalLetters: Int
    /// Letters no voice of the conversion can speak (estimated from the share each voice speaks), by script.
    public var unspeakable = ScriptCensus()
    /// The sections read where at least `SpeakableText.warningShare` of the letters cannot be spoken.
    public var sections: [Int] = []
    /// How runs of other scripts switch voices (nil: no run does); the conversion's chunking option.
    public var switching: ScriptSwitching?
    /// The voices runs of the text read are switched to, by name, and the scripts each reads.
    public var switchedTo: [String: Set<Script>] = [:]
    /// An installed voice of the same language that speaks what this one cannot, by name.
    public var suggestedVoice: String?
    /// Languages the markup gives blocks of the text read that the voice does not speak (a voice of one
    /// language: a neural voice), each with the voice that reads them instead, by name.
    public var otherLanguages: [String: String] = [:]

    /// A report on `voice` for `totalLetters` letters, all of them speakable until told otherwise.
    public init(voice: VoiceInfo, totalLetters: Int) {
        self.voice = voice
        self.totalLetters = totalLetters
    }

    /// The share of the letters read that cannot be spoken, 0...1.
    public var unspeakableShare: Double {
        totalLetters == 0 ? 0 : Double(unspeakable.total) / Double(totalLetters)
    }

    /// Whether the listener should hear about it before the conversion.
    public var warrantsWarning: Bool {
        unspeakable.total >= SpeakableText.warningLetters && unspeakableShare >= SpeakableText.warningShare
    }

    /// Whether the conversion should be refused (unless forced): most of the text cannot be spoken.
    public var refuses: Bool { unspeakableShare > SpeakableText.refusalShare }

    /// "12% of the text (sections 3–7, 9) is in a script the voice 'ja' cannot speak: Han (Chinese
    /// characters), which it names or spells instead; no installed voice of its language speaks it",
    /// or with the voice that does: "...; the voice 'cmn-Latn-pinyin' speaks it". Nil when there is
    /// nothing to say (`warrantsWarning`).
    public var problem: String? {
        guard warrantsWarning else { return nil }
        let percent = max(1, Int((unspeakableShare * 100).rounded()))
        let scripts = unspeakable.counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key.name)
        var line = "\(percent)% of the text"
        if !sections.isEmpty { line += " (\(Self.sectionList(sections)))" }
        line += " is in \(scripts.count == 1 ? "a script" : "scripts") the voice '\(SpeakableText.name(of: voice))'"
        line += " cannot speak: \(scripts.joined(separator: ", ")), which it names or spells instead"
        if let suggestedVoice {
            line += "; the voice '\(suggestedVoice)' speaks \(scripts.count == 1 ? "it" : "them")"
        } else {
            line += "; no installed voice of its language speaks \(scripts.count == 1 ? "it" : "them")"
        }
        return line
    }

    /// "text in other scripts is read by other voices: Cyrillic by 'ru', Hiragana and Katakana by 'ja'"
    /// (voices in the order of their first script),
    /// or nil when no run switches.
    public var switches: String? {
        guard !switchedTo.isEmpty else { return nil }
        let byVoice = switchedTo.map { (voice: $0.key, scripts: $0.value.sorted()) }
            .sorted { ($0.scripts[0], $0.voice) < ($1.scripts[0], $1.voice) }
        let parts = byVoice.map { "\(Self.joined($0.scripts.map(\.name))) by '\($0.voice)'" }
        return "text in other scripts is read by other voices: " + parts.joined(separator: ", ")
    }

    /// "text in other languages is read by other voices: de by 'de', el by 'el' (the voice 'piper:x'
    /// speaks en-US)", or nil when the voice speaks every language the text is marked with.
    public var languageSwitches: String? {
        guard !otherLanguages.isEmpty else { return nil }
        let parts = otherLanguages.sorted { $0.key < $1.key }.map { "\($0.key) by '\($0.value)'" }
        let spoken = voice.languages.first.map { " (the voice '\(SpeakableText.name(of: voice))' speaks \($0))" } ?? ""
        return "text in other languages is read by other voices: " + parts.joined(separator: ", ") + spoken
    }

    /// "section 4", "sections 3–7, 9".
    static func sectionList(_ numbers: [Int]) -> String {
        var ranges: [ClosedRange<Int>] = []
        for number in numbers.sorted() {
            if let last = ranges.last, last.upperBound + 1 == number {
                ranges[ranges.count - 1] = last.lowerBound...number
            } else {
                ranges.append(number...number)
            }
        }
        let text = ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        return (numbers.count == 1 ? "section " : "sections ") + text.joined(separator: ", ")
    }

    /// Its JSON form (`--list --json`, key `speech`): `voice` (its name), `letters` (read),
    /// `unspeakable` (letters by script code), `unspeakableShare` (0...1, two decimals), `sections`,
    /// `switchedTo` (voice name → script codes), `suggestedVoice`, `refused`.
    enum CodingKeys: String, CodingKey {
        case voice, letters, unspeakable, unspeakableShare, sections, switchedTo, suggestedVoice, refused
    }

    private static func joined(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}

extension SpeakableTextReport {
    /// Encodes the report as `CodingKeys` says.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SpeakableText.name(of: voice), forKey: .voice)
        try container.encode(totalLetters, forKey: .letters)
        try container.encode(unspeakable, forKey: .unspeakable)
        try container.encode((unspeakableShare * 100).rounded() / 100, forKey: .unspeakableShare)
        try container.encode(sections, forKey: .sections)
        try container.encode(switchedTo.mapValues { $0.sorted().map(\.rawValue) }, forKey: .switchedTo)
        try container.encodeIfPresent(suggestedVoice, forKey: .suggestedVoice)
        try container.encode(refuses, forKey: .refused)
    }
}
