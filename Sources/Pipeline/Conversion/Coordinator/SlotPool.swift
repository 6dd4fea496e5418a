import Foundation
import Synchronization

/// What a job slot takes next: a whole section (split into parts when long), or one part of a long
/// section.
///
/// A section waits as the plan's compact `SectionToMake`; its worker job (paths, tags, settings) is
/// made when a slot takes it. Made for every section up front, the 10,000 jobs of the 10,000-section
/// book, in the plan's list and again in the queue, were most of what the coordinator's memory grew
/// by when converting the whole book.
enum SlotWork: Sendable {
    case section(ConversionPlan.SectionToMake)
    case part(PartedSection, SectionPart)

    /// Longest first: the words of the section (as the book text counts them), for a part too, so
    /// that a long section's parts are taken early and in order (its file is written as they come).
    var words: Int {
        switch self {
        case .section(let planned): planned.section.words
        case .part(let parted, _): parted.task.section.words
        }
    }

    /// Among equals, book order, then part order.
    var order: (Int, Int) {
        switch self {
        case .section(let planned): (planned.section.number, -1)
        case .part(let parted, let part): (parted.task.section.number, part.index)
        }
    }

    /// Whether `lhs` is taken after `rhs` (the queue is sorted by this order and popped from the end).
    static func takenAfter(_ lhs: SlotWork, _ rhs: SlotWork) -> Bool {
        (lhs.words, -lhs.order.0, -lhs.order.1) < (rhs.words, -rhs.order.0, -rhs.order.1)
    }
}

/// The job slots of a run: one thread each, driving an executor (a worker, or this process), taking
/// work from one queue, longest first, until the queue is empty or the run stops.
struct SlotPool {
    /// How a slot's work ended: true made, false failed, nil goes on (a section in parts ends with
    /// its last part, in whichever slot makes it).
    typealias Outcome = Bool?

    let request: ConversionRequest
    let environment: ConversionEnvironment
    let launcher: (any WorkerLauncher)?
    let control: RunControl

    /// Makes `sections` in slots; `perform` does one piece of work on a slot's executor. Returns how
    /// many sections were made and how many failed.
    func run(
        _ sections: [ConversionPlan.SectionToMake], emit: @Sendable (ConversionEvent) -> Void,
        perform: @escaping @Sendable (SlotWork, any SectionExecutor, WorkQueue) -> Outcome
    ) -> (done: Int, failed: Int) {
        // Longest first, so no core sits idle at the end waiting on one long chapter. Sorted so that
        // taking the next job is `popLast()` (`removeFirst()` moved every job left: O(n²) per book).
        // A long section's parts join the queue when its slot splits it (`startParts`).
        let queue = WorkQueue(sections.map { SlotWork.section($0) })
        let counts = Mutex((done: 0, failed: 0))
        // A slot per job up to the work there is: a long section counts as the parts it will make
        // (estimated from its words; the exact split is known once its text is chunked).
        let work = sections.reduce(0) { $0 + max(1, $1.section.words / max(1, request.partWords)) }
        let group = DispatchGroup()
        for executor in makeExecutors(count: min(max(request.jobs, 1), work), emit: emit) {
            group.enter()
            let thread = Thread { [control] in
                defer { group.leave() }
                while !control.isStopping, let item = queue.next() {
                    guard let ended = perform(item, executor, queue) else { continue }
                    counts.withLock { counts in
                        if ended { counts.done += 1 } else { counts.failed += 1 }
                    }
                }
                executor.shutdown()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        group.wait()
        return counts.withLock { $0 }
    }

    /// One executor per job slot: in this process without a worker executable (one slot then), else
    /// a worker per slot. With a worker executable every section is made in a fresh worker process,
    /// also with one job: that is what keeps the bytes identical across resumes and job counts (see
    /// `WorkerExecutor`); a fork server gives each section a fresh process of its own.
    private func makeExecutors(count: Int, emit: @Sendable (ConversionEvent) -> Void) -> [any SectionExecutor] {
        var slots = count
        if slots > 1 && launcher == nil {
            emit(.warning(message: "no worker executable given: making one section at a time"))
            slots = 1
        }
        let made: [any SectionExecutor] = (0..<slots).map { _ in
            guard let launcher else { return InProcessExecutor(environment: environment) }
            return WorkerExecutor(launcher: launcher, keepsWorker: request.workerForksPerJob)
        }
        control.adopt(made)
        return made
    }
}
