import Contracts
import EPUBReader

/// The stage of the section index that joins text the TOC does not reach to the section before it,
/// unless it is something else (`joined`), then judges each section that grew again on all of its text
/// (`reassessGrown`): its size and shape, not its first page's, decide what it is.
struct DraftMerging: BookStage {
    /// The review the grown sections are judged again with (position, chapters among chapters).
    let review: DraftReview
    /// The spine items a TOC entry points inside of (`TOCStarts`): text after such an entry joins it.
    let insideEntries: Set<Int>

    var book: IndexedBook { review.book }
    var statistics: BookStatistics { review.statistics }

    /// `joined`, then `reassessGrown`.
    func merged(_ drafts: [SectionDraft]) -> [SectionDraft] {
        var drafts = joined(drafts)
        reassessGrown(&drafts)
        return drafts
    }

    /// Text the TOC does not reach joins the section before it, unless it is something else.
    func joined(_ drafts: [SectionDraft]) -> [SectionDraft] {
        var out: [SectionDraft] = []
        out.reserveCapacity(drafts.count)
        let firstTOC = drafts.firstIndex { $0.start.origin == .toc } ?? drafts.count
        // The last section kept began as a heading alone, or was judged skipped only for being
        // short and where it stands.
        var lastOpensWhatFollows = false
        for (index, draft) in drafts.enumerated() {
            guard draft.start.origin == .untargeted, index > firstTOC, var prev = out.last else {
                out.append(draft)
                lastOpensWhatFollows = DividerMarking(book: book).isHeadingOnly(draft) || draft.isSkippedOnlyForItsSize
                continue
            }
            let classification = draft.classification
            let previousClassification = prev.classification
            // Only strong evidence of being something else keeps it apart (a copyright page after
            // the last chapter); sub-sections of a chapter or an appendix in files of their own join.
            let ownEvidence = draft.evidence.contains { $0.weight >= 2 }
            let ownChapterHeading = draft.features.headings.first.map(Patterns.isChapterTitle) ?? false
            let isInside =
                draft.start.position.blockIndex == 0 && insideEntries.contains(draft.start.position.spineIndex)
            // The text under a heading that ends the file before (`startingAtTrailingHeadings`).
            let continuesAHeading =
                prev.start.runsIntoNextFile && draft.start.position.blockIndex == 0
                && draft.start.position.spineIndex == prev.start.position.spineIndex + 1
            // A linear="no" item (a note popup, an answer key) is never glued to the reading order.
            let linearChanges =
                isLinear(draft.start.position.spineIndex)
                != isLinear(prev.end.spineIndex - (prev.end.blockIndex == 0 ? 1 : 0))
            // Text that reads as the book's own never joins a section to be skipped unless the TOC
            // lists it under that section, or the section is only a heading naming what follows
            // ("Appendix" alone in its file) or was skipped only for being short and early (a
            // converter's cut after a poem's title and first line): its words would be lost on
            // another page's evidence (a poem after the copyright page). Joined, the section is
            // judged again on all of its text.
            let wouldBeLost =
                previousClassification.role != .body && classification.role == .body && !lastOpensWhatFollows
            // Text that opens with a title of its own, naming nothing ("The River" after an unlisted
            // "Acknowledgement" page), is a page of its own: joined to a section named like matter,
            // it would be judged again with it and skipped for that name. ("Chapter Two" there
            // continues what came before as often as not.)
            let ownTitle = draft.features.openingLine.map {
                Patterns.kind(forTitle: $0) == nil && !Patterns.isChapterTitle($0)
            }
            let apartFromAName =
                ownTitle == true && prev.evidence.contains { $0.isNaming && $0.kind != nil && !$0.isBody }
            // Apparatus with its kind's shape (a publisher's list after the last chapter, with no
            // entry of its own) stands apart, however weakly its title names it.
            let isShapedApparatus =
                classification.role != .body && KindExpectation.hasApparatusShape(classification.kind, draft.features)
            let joins =
                !linearChanges
                && (isInside || continuesAHeading
                    || (!wouldBeLost && !apartFromAName && !ownChapterHeading && !isShapedApparatus
                        && (!ownEvidence
                            || (classification.role == previousClassification.role
                                && classification.kind == previousClassification.kind))))
            if joins {
                prev.end = draft.end
                prev.grown = true
                out[out.count - 1] = prev
            } else {
                out.append(draft)
                lastOpensWhatFollows = DividerMarking(book: book).isHeadingOnly(draft) || draft.isSkippedOnlyForItsSize
            }
        }
        return out
    }

    /// A section that took in the text after it (files without a start of their own) is judged
    /// again on all of its text: the first file of a part can be a heading alone, "very short" and
    /// "before the first chapter", while the section runs for 100,000 words. Its size and shape,
    /// not its first page's, decide what it is.
    func reassessGrown(_ drafts: inout [SectionDraft]) {
        let grown = drafts.indices.filter { drafts[$0].grown }
        guard !grown.isEmpty else { return }
        for i in grown {
            assessor.assess(&drafts[i])
            drafts[i].decide()
        }
        review.addPositionEvidence(&drafts, to: grown)
        review.readChapterSizedSectionsAmongChapters(&drafts, among: grown)
    }
}
