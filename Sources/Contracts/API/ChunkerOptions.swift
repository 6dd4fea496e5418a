/// How the chunker sizes chunks and how much silence it puts around them.
///
/// Part of the conversion settings (and so of what the progress manifest compares on resume).
/// Decoding tolerates missing keys: each falls back to its default, so settings written by an
/// older version still load.
public struct ChunkerOptions: Hashable, Sendable, Codable {
    /// Sentences of one block are grouped into a chunk until it would exceed this many characters
    /// (Unicode scalars). A single longer sentence stays whole up to `maxCharacters`.
    public var targetCharacters: Int
    /// No chunk is longer than this (Unicode scalars): longer sentences are split at clause
    /// punctuation, else at a space.
    public var maxCharacters: Int

    /// Silence after the section's title block, in milliseconds.
    public var afterTitleMS: Int
    /// Silence after a paragraph.
    public var paragraphMS: Int
    /// Silence before a heading inside a section.
    public var headingBeforeMS: Int
    /// Silence after a heading inside a section.
    public var headingAfterMS: Int
    /// Silence of a scene break.
    public var sceneBreakMS: Int
    /// Silence after one line of verse.
    public var poemLineMS: Int
    /// Silence of a stanza break (also used after the last line of a poem).
    public var stanzaMS: Int
    /// Silence after the last chunk of a section.
    public var sectionEndMS: Int
    /// Silence after a list item.
    public var listItemMS: Int
    /// Silence after a block quote.
    public var blockQuoteMS: Int
    /// Silence after a spoken notice ("Table omitted.").
    public var noticeMS: Int
    /// Silence after a caption.
    public var captionMS: Int
    /// Silence after a note read at the end of a section.
    public var noteMS: Int
    /// Runs of text in a script the voice cannot speak, read by another voice (`ScriptSwitching`);
    /// nil: none. Absent from the JSON when nil, so settings without it keep their fingerprint.
    public var scriptSwitching: ScriptSwitching?

    /// Creates options; every value has a default tuned for narrated prose.
    public init(
        targetCharacters: Int = 600, maxCharacters: Int = 1500, afterTitleMS: Int = 1200, paragraphMS: Int = 500,
        headingBeforeMS: Int = 800, headingAfterMS: Int = 600, sceneBreakMS: Int = 1500, poemLineMS: Int = 250,
        stanzaMS: Int = 700, sectionEndMS: Int = 1500, listItemMS: Int = 350, blockQuoteMS: Int = 400,
        noticeMS: Int = 500, captionMS: Int = 500, noteMS: Int = 500, scriptSwitching: ScriptSwitching? = nil
    ) {
        self.targetCharacters = targetCharacters
        self.maxCharacters = maxCharacters
        self.afterTitleMS = afterTitleMS
        self.paragraphMS = paragraphMS
        self.headingBeforeMS = headingBeforeMS
        self.headingAfterMS = headingAfterMS
        self.sceneBreakMS = sceneBreakMS
        self.poemLineMS = poemLineMS
        self.stanzaMS = stanzaMS
        self.sectionEndMS = sectionEndMS
        self.listItemMS = listItemMS
        self.blockQuoteMS = blockQuoteMS
        self.noticeMS = noticeMS
        self.captionMS = captionMS
        self.noteMS = noteMS
        self.scriptSwitching = scriptSwitching
    }

    private enum CodingKeys: String, CodingKey {
        case targetCharacters, maxCharacters, afterTitleMS, paragraphMS, headingBeforeMS, headingAfterMS
        case sceneBreakMS, poemLineMS, stanzaMS, sectionEndMS, listItemMS, blockQuoteMS, noticeMS, captionMS, noteMS
        case scriptSwitching
    }

    /// Decodes options; a missing key takes its default value.
    public init(from decoder: any Decoder) throws {
        let defaults = ChunkerOptions()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value(_ key: CodingKeys, _ fallback: Int) throws -> Int {
            try container.decodeIfPresent(Int.self, forKey: key) ?? fallback
        }
        self.init(
            targetCharacters: try value(.targetCharacters, defaults.targetCharacters),
            maxCharacters: try value(.maxCharacters, defaults.maxCharacters),
            afterTitleMS: try value(.afterTitleMS, defaults.afterTitleMS),
            paragraphMS: try value(.paragraphMS, defaults.paragraphMS),
            headingBeforeMS: try value(.headingBeforeMS, defaults.headingBeforeMS),
            headingAfterMS: try value(.headingAfterMS, defaults.headingAfterMS),
            sceneBreakMS: try value(.sceneBreakMS, defaults.sceneBreakMS),
            poemLineMS: try value(.poemLineMS, defaults.poemLineMS),
            stanzaMS: try value(.stanzaMS, defaults.stanzaMS),
            sectionEndMS: try value(.sectionEndMS, defaults.sectionEndMS),
            listItemMS: try value(.listItemMS, defaults.listItemMS),
            blockQuoteMS: try value(.blockQuoteMS, defaults.blockQuoteMS),
            noticeMS: try value(.noticeMS, defaults.noticeMS),
            captionMS: try value(.captionMS, defaults.captionMS),
            noteMS: try value(.noteMS, defaults.noteMS),
            scriptSwitching: try container.decodeIfPresent(ScriptSwitching.self, forKey: .scriptSwitching))
    }

    /// Silence after the last chunk of a block of this kind, before whatever follows.
    public func pauseAfter(_ kind: BlockKind) -> Int {
        switch kind {
        case .title: afterTitleMS
        case .heading: headingAfterMS
        case .paragraph: paragraphMS
        case .listItem: listItemMS
        case .blockQuote: blockQuoteMS
        case .poemLine: poemLineMS
        case .stanzaBreak: stanzaMS
        case .sceneBreak: sceneBreakMS
        case .notice: noticeMS
        case .caption: captionMS
        case .note: noteMS
        }
    }
}
