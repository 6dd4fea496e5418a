import Contracts

/// A section being decided: the text from a start up to the next one, what it looks like
/// (`features`), what that says about it (`evidence`), and the decision drawn from the evidence.
///
/// The stages after the drafts are assessed (`DraftAssessor`) change drafts only through these
/// values: evidence added and decided again, a kind changed, two drafts joined.
struct SectionDraft {
    var start: SectionStart
    var end: SourcePosition
    var features = SectionFeatures(title: "")
    var evidence: [Evidence] = []
    var classification = Classification(
        role: .body, kind: .chapter, confidence: 0, reasons: [], bodyWeight: 0, otherWeight: 0)
    /// Took in the text of drafts after it (`DraftMerging`): its features are its first part's
    /// until it is assessed again.
    var grown = false

    /// Combines the evidence, then keeps the text when its size and shape do not fit the kind it
    /// would be skipped as (`KindExpectation`).
    mutating func decide() {
        let defaultKind: SectionKind = start.origin == .toc ? .chapter : .other
        var decision = SectionClassifier.decide(evidence, defaultKind: defaultKind)
        let semantic = evidence.contains { $0.isSemantic && $0.kind == decision.kind }
        if decision.role != .body,
            let why = KindExpectation.misfit(kind: decision.kind, features: features, markedBySemantics: semantic)
        {
            evidence.append(Evidence(kind: nil, role: .body, weight: 100, reason: why))
            decision = SectionClassifier.decide(evidence, defaultKind: defaultKind == .chapter ? .chapter : .other)
        }
        classification = decision
    }

    /// Reads the draft as text, for `reason` (evidence that outweighs any other).
    mutating func read(because reason: String) {
        evidence.append(Evidence(kind: nil, role: .body, weight: 100, reason: reason))
        decide()
    }

    /// Whether the draft is skipped on nothing but weak, generic evidence (very short, before the
    /// first chapter, a list of short lines): no kind, no mark of the book's, no title says so.
    var isSkippedOnlyForItsSize: Bool {
        classification.role != .body && classification.kind == .other
            && evidence.allSatisfy { $0.isBody || ($0.kind == nil && $0.weight < 1) }
    }
}
