/// A row of ornaments (`* * *`, `⁂`, `~~~`) standing for a scene break.
enum SceneBreak {
    /// A row of asterisks, dots or similar ornaments marks a scene break.
    static func isSceneBreakText(_ text: String) -> Bool {
        // At most 20 ornaments and nothing else but spaces; stops at the first other character.
        var count = 0
        var allDots = true
        for ch in text where !ch.isWhitespace {
            guard count < 20, sceneBreakOrnaments.contains(ch) else { return false }
            count += 1
            allDots = allDots && ch == "."
        }
        return count > 0 && !(allDots && count == 3)
    }

    static let sceneBreakOrnaments: Set<Character> = Set("*⁂•·.~#-–—_=+○●◆◇❦❧✣✤✥✦✧✱✲✳✴✵✶✷✸✹✺✻✼✽✾✿❀❁❂❃❋§")
}
