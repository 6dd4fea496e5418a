import Foundation
import Testing

@testable import ServerCore

/// The state machine without a database: every (job state, task state, outcome) gives the rows and
/// events the stores then write (their own tests, `JobStoreTests`, check that they do).
@Suite struct JobLifecycleTests {
    typealias Transition = JobLifecycle.Transition
    /// Three attempts; the waits at the middle of their bounds: 1 s after the first, 2 s after the second.
    static let lifecycle = JobLifecycle(
        outputLifetime: 60, retries: RetryPolicy(maxAttempts: 3, base: 2, cap: 300, jitter: { 0.5 }))

    /// The wait `lifecycle` gives after attempt `attempt` failed.
    static func delay(after attempt: Int) -> Double { Double(1 << (attempt - 1)) }
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let time = now.timeIntervalSince1970
    static let plan = JobPlan(voice: "gmw/en", sections: [2, 5], displayTitle: "Book")
    static let result = SectionResult(section: 2, directory: "work/2-1", file: "002 - Two.wav", durationSeconds: 1.5)
    static let outputs = [OutputRecord(name: "002 - Two.wav", size: 10, sha256: "00")]

    static func key(_ kind: TaskKind) -> TaskKey { TaskKey(kind: kind, section: kind == .section ? 2 : 0) }

    /// The task as stored while `attempt` of `owner` runs it.
    static func running(_ kind: TaskKind, attempt: Int = 1, owner: String = "w") -> StoredTask {
        StoredTask(key: key(kind), state: .running, owner: owner, attempts: attempt)
    }

    /// What the worker holds for that attempt.
    static func claimed(_ kind: TaskKind, attempt: Int = 1, owner: String = "w") -> ClaimedTask {
        ClaimedTask(
            jobID: "j", kind: kind, section: key(kind).section, attempt: attempt, owner: owner, book: "b",
            options: JobOptions(), plan: kind == .plan ? nil : plan)
    }

    static let finalizeTask = [TaskKey(kind: .finalize, section: 0)]

    // MARK: The table: a running job, a task's outcome

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var kind: TaskKind
        var attempt = 1
        var outcome: TaskOutcome
        /// The job's section tasks queued or running, this one included when it is a section.
        var openSections = 1
        var expected: Transition
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a plan queues its sections", kind: .plan, outcome: .planned(plan),
            expected: Transition(
                task: .settled(.done, result: nil, error: nil), job: .init(updated: time, plan: plan),
                newTasks: [TaskKey(kind: .section, section: 2), TaskKey(kind: .section, section: 5)],
                events: [.planned(sections: [2, 5])])),
        Case(
            name: "a section done while another runs", kind: .section, outcome: .sectionDone(result), openSections: 2,
            expected: Transition(
                task: .settled(.done, result: result, error: nil),
                events: [.sectionDone(section: 2, file: result.file, durationSeconds: 1.5)])),
        Case(
            name: "the last section done queues the finalize task", kind: .section, outcome: .sectionDone(result),
            expected: Transition(
                task: .settled(.done, result: result, error: nil), newTasks: finalizeTask,
                events: [.sectionDone(section: 2, file: result.file, durationSeconds: 1.5)])),
        Case(
            name: "finalized: the job succeeds", kind: .finalize,
            outcome: .finalized(outputs: outputs, audioSeconds: 3, failedSections: 0),
            expected: Transition(
                task: .settled(.done, result: nil, error: nil),
                job: .init(
                    updated: time, state: .succeeded, error: nil, outputs: outputs, audioSeconds: 3, expires: time + 60),
                events: [.state(.succeeded, audioSeconds: 3)])),
        Case(
            name: "finalized with failed sections: the job fails", kind: .finalize,
            outcome: .finalized(outputs: outputs, audioSeconds: 3, failedSections: 2),
            expected: Transition(
                task: .settled(.done, result: nil, error: nil),
                job: .init(
                    updated: time, state: .failed, error: "2 section(s) failed", outputs: outputs, audioSeconds: 3,
                    expires: time + 60),
                events: [.state(.failed, error: "2 section(s) failed", audioSeconds: 3)])),
        Case(
            name: "a plan failing transiently is retried", kind: .plan, attempt: 1,
            outcome: .failed(message: "busy", retry: true),
            expected: Transition(
                task: .requeued(error: "busy", notBefore: time + 1),
                events: [.retry(task: .plan, section: 0, attempt: 1, message: "busy", delaySeconds: 1)])),
        Case(
            name: "a section failing transiently is retried, even as the last", kind: .section, attempt: 2,
            outcome: .failed(message: "busy", retry: true),
            expected: Transition(
                task: .requeued(error: "busy", notBefore: time + 2),
                events: [.retry(task: .section, section: 2, attempt: 2, message: "busy", delaySeconds: 2)])),
        Case(
            name: "a finalize failing transiently is retried", kind: .finalize, attempt: 2,
            outcome: .failed(message: "busy", retry: true),
            expected: Transition(
                task: .requeued(error: "busy", notBefore: time + 2),
                events: [.retry(task: .finalize, section: 0, attempt: 2, message: "busy", delaySeconds: 2)])),
        Case(
            name: "a plan failing on its last attempt fails the job", kind: .plan, attempt: 3,
            outcome: .failed(message: "busy", retry: true),
            expected: Transition(
                task: .settled(.failed, result: nil, error: "busy"),
                job: .init(updated: time, state: .failed, error: "busy", expires: time + 60),
                events: [.state(.failed, error: "busy")])),
        Case(
            name: "a plan failing for good fails the job at once", kind: .plan, attempt: 1,
            outcome: .failed(message: "unreadable", retry: false),
            expected: Transition(
                task: .settled(.failed, result: nil, error: "unreadable"),
                job: .init(updated: time, state: .failed, error: "unreadable", expires: time + 60),
                events: [.state(.failed, error: "unreadable")])),
        Case(
            name: "a finalize failing for good fails the job", kind: .finalize, attempt: 1,
            outcome: .failed(message: "no ffmpeg", retry: false),
            expected: Transition(
                task: .settled(.failed, result: nil, error: "no ffmpeg"),
                job: .init(updated: time, state: .failed, error: "no ffmpeg", expires: time + 60),
                events: [.state(.failed, error: "no ffmpeg")])),
        Case(
            name: "a section failing for good while another runs", kind: .section, attempt: 1,
            outcome: .failed(message: "engine", retry: false), openSections: 3,
            expected: Transition(
                task: .settled(.failed, result: nil, error: "engine"),
                events: [.sectionFailed(section: 2, message: "engine")])),
        Case(
            name: "the last section failing for good still queues the finalize task", kind: .section, attempt: 3,
            outcome: .failed(message: "engine", retry: true),
            expected: Transition(
                task: .settled(.failed, result: nil, error: "engine"), newTasks: finalizeTask,
                events: [.sectionFailed(section: 2, message: "engine")])),
    ]

    @Test(arguments: cases) func aRunningJobsTaskEnds(_ test: Case) {
        let transition = Self.lifecycle.completed(
            Self.claimed(test.kind, attempt: test.attempt), outcome: test.outcome,
            stored: Self.running(test.kind, attempt: test.attempt), jobState: .running,
            openSections: test.openSections, now: Self.now)
        #expect(transition == test.expected)
    }

    // MARK: Every job state × task state × outcome

    static let outcomes: [TaskOutcome] = [
        .planned(plan), .sectionDone(result), .finalized(outputs: outputs, audioSeconds: 3, failedSections: 0),
        .finalized(outputs: [], audioSeconds: 0, failedSections: 1), .failed(message: "m", retry: true),
        .failed(message: "m", retry: false),
    ]
    static let kinds: [TaskKind] = [.plan, .section, .finalize]

    @Test(arguments: outcomes) func onlyTheAttemptThatHoldsTheTaskChangesAnything(_ outcome: TaskOutcome) {
        for kind in Self.kinds {
            let attempt = Self.claimed(kind, attempt: 2, owner: "w")
            let holders: [StoredTask?] =
                TaskState.allCases.filter { $0 != .running }.map {
                    StoredTask(key: Self.key(kind), state: $0, owner: "w", attempts: 2)
                } + [
                    nil, Self.running(kind, attempt: 3, owner: "w"), Self.running(kind, attempt: 2, owner: "other"),
                    Self.running(kind, attempt: 1, owner: "w"),
                ]
            for stored in holders {
                for jobState in JobState.allCases + [nil] {
                    let transition = Self.lifecycle.completed(
                        attempt, outcome: outcome, stored: stored, jobState: jobState, openSections: 1, now: Self.now)
                    #expect(
                        transition == nil, "\(kind) \(String(describing: stored)) job \(String(describing: jobState))")
                }
            }
        }
    }

    @Test(arguments: outcomes) func aResultForAJobNoLongerRunningOnlyEndsTheTask(_ outcome: TaskOutcome) {
        let cancelledTask = Transition(task: .settled(.cancelled, result: nil, error: nil))
        for kind in Self.kinds {
            for jobState in JobState.allCases.filter({ $0 != .running }) + [nil] {
                #expect(
                    Self.lifecycle.completed(
                        Self.claimed(kind), outcome: outcome, stored: Self.running(kind), jobState: jobState,
                        openSections: 1, now: Self.now) == cancelledTask)
                #expect(
                    Self.lifecycle.leaseExpired(Self.running(kind), jobState: jobState, openSections: 1, now: Self.now)
                        == cancelledTask)
            }
        }
    }

    /// Whatever happens, a job only moves forward, a finished job is kept `outputLifetime`, each
    /// state change is told by one event, and idle workers are told exactly when a task is queued.
    @Test(arguments: outcomes) func everyTransitionKeepsTheInvariants(_ outcome: TaskOutcome) throws {
        for kind in Self.kinds {
            for attempt in 1...Self.lifecycle.maxAttempts {
                for open in 1...3 {
                    let transition = try #require(
                        Self.lifecycle.completed(
                            Self.claimed(kind, attempt: attempt), outcome: outcome,
                            stored: Self.running(kind, attempt: attempt), jobState: .running, openSections: open,
                            now: Self.now))
                    try Self.checkInvariants(transition, from: .running)
                }
            }
        }
    }

    static func checkInvariants(_ transition: Transition, from state: JobState) throws {
        let stateEvents = transition.events.compactMap { event -> JobState? in
            if case .state(let state, _, _) = event { return state }
            return nil
        }
        if let newState = transition.job?.state {
            #expect(Self.allowed(from: state).contains(newState), "\(state) → \(newState)")
            #expect(stateEvents == [newState])
            #expect((transition.job?.expires != nil) == newState.isTerminal)
            if let expires = transition.job?.expires { #expect(expires == Self.time + 60) }
        } else {
            #expect(stateEvents.isEmpty)
        }
        if case .requeued = transition.task { #expect(transition.newTasks.isEmpty) }
        let requeued: Bool
        switch transition.task {
        case .requeued, .released: requeued = true
        default: requeued = false
        }
        #expect(transition.queuesWork == (requeued || !transition.newTasks.isEmpty))
        #expect(transition.job.map { $0.updated == Self.time } ?? true)
    }

    static func allowed(from state: JobState) -> Set<JobState> {
        switch state {
        case .queued: return [.running, .cancelled]
        case .running: return [.succeeded, .failed, .cancelled]
        case .succeeded, .failed, .cancelled: return []
        }
    }

    // MARK: Retries and attempts

    @Test(arguments: [TaskKind.plan, .section, .finalize], 1...4)
    func aTransientFailureIsRetriedWhileAttemptsRemain(_ kind: TaskKind, attempt: Int) throws {
        let transition = try #require(
            Self.lifecycle.completed(
                Self.claimed(kind, attempt: attempt), outcome: .failed(message: "m", retry: true),
                stored: Self.running(kind, attempt: attempt), jobState: .running, openSections: 2, now: Self.now))
        if attempt < 3 {
            #expect(transition.task == .requeued(error: "m", notBefore: Self.time + Self.delay(after: attempt)))
            #expect(
                transition.events == [
                    .retry(
                        task: kind, section: Self.key(kind).section, attempt: attempt, message: "m",
                        delaySeconds: Self.delay(after: attempt))
                ])
        } else {
            #expect(transition.task == .settled(.failed, result: nil, error: "m"))
            #expect(transition.events.allSatisfy { $0.type != "retry" })
        }
    }

    @Test(arguments: [TaskKind.plan, .section, .finalize], 1...3)
    func aLostWorkersTaskIsRetriedThenFails(_ kind: TaskKind, attempt: Int) throws {
        let transition = Self.lifecycle.leaseExpired(
            Self.running(kind, attempt: attempt), jobState: .running, openSections: 1, now: Self.now)
        let message = JobLifecycle.leaseExpiredMessage
        // What a worker reporting a transient failure gets: the lease's end is one.
        #expect(
            transition
                == Self.lifecycle.completed(
                    Self.claimed(kind, attempt: attempt), outcome: .failed(message: message, retry: true),
                    stored: Self.running(kind, attempt: attempt), jobState: .running, openSections: 1, now: Self.now))
        if attempt < 3 {
            #expect(transition.task == .requeued(error: message, notBefore: Self.time + Self.delay(after: attempt)))
        } else {
            #expect(transition.task == .settled(.failed, result: nil, error: message))
            #expect(transition.job?.state == (kind == .section ? nil : .failed))
            #expect(transition.newTasks == (kind == .section ? Self.finalizeTask : []))
        }
    }

    // MARK: Claims, creation, cancellation

    @Test(arguments: JobState.allCases) func aClaimRunsTheTaskAndStartsAQueuedJob(_ state: JobState) throws {
        let stored = StoredTask(key: Self.key(.section), state: .queued, owner: nil, attempts: 1)
        let transition = Self.lifecycle.claimed(stored, by: "w-2", lease: 30, jobState: state, now: Self.now)
        #expect(transition.task == .claimed(owner: "w-2", attempt: 2, leaseUntil: Self.time + 30))
        #expect(transition.job == (state == .queued ? .init(updated: Self.time, state: .running) : nil))
        #expect(transition.events == (state == .queued ? [.state(.running)] : []))
        #expect(!transition.queuesWork)
        try Self.checkInvariants(transition, from: state)
    }

    /// A worker shutting down gives back the task it holds: queued at once, the attempt not counted, no
    /// event; only the attempt that holds it can; a job no longer running just ends the task.
    @Test(arguments: [TaskKind.plan, .section, .finalize], JobState.allCases)
    func aReleasedTaskIsQueuedAgainUncounted(_ kind: TaskKind, _ state: JobState) throws {
        let transition = try #require(
            Self.lifecycle.released(
                Self.claimed(kind, attempt: 2), stored: Self.running(kind, attempt: 2), jobState: state))
        if state == .running || state == .queued {
            #expect(transition == Transition(task: .released(attempts: 1)))
            #expect(transition.queuesWork)
        } else {
            #expect(transition == Transition(task: .settled(.cancelled, result: nil, error: nil)))
        }
        try Self.checkInvariants(transition, from: state)
        #expect(
            Self.lifecycle.released(
                Self.claimed(kind, attempt: 1), stored: Self.running(kind, attempt: 2), jobState: state)
                == nil)
        #expect(
            Self.lifecycle.released(
                Self.claimed(kind, owner: "other"), stored: Self.running(kind), jobState: state) == nil)
    }

    @Test func aNewJobIsQueuedWithItsPlanTask() {
        let transition = Self.lifecycle.created()
        #expect(JobLifecycle.initialState == .queued)
        #expect(transition == Transition(newTasks: [TaskKey(kind: .plan, section: 0)], events: [.state(.queued)]))
        #expect(transition.queuesWork)
    }

    @Test(arguments: JobState.allCases) func cancellingStopsAJobThatIsNotFinished(_ state: JobState) throws {
        let transition = Self.lifecycle.cancelled(jobState: state, now: Self.now)
        if state.isTerminal {
            #expect(transition == Transition())
        } else {
            #expect(
                transition
                    == Transition(
                        job: .init(updated: Self.time, state: .cancelled, expires: Self.time + 60),
                        cancelsQueuedTasks: true, events: [.state(.cancelled)]))
        }
        try Self.checkInvariants(transition, from: state)
    }

    // MARK: Running a failed job again

    static func stored(_ kind: TaskKind, _ section: Int, _ state: TaskState, attempts: Int = 3) -> StoredTask {
        StoredTask(key: TaskKey(kind: kind, section: section), state: state, owner: "w", attempts: attempts)
    }

    /// The job's row as a retry leaves it: in `state` again, nothing made yet, no expiry.
    static func reopened(_ state: JobState) -> JobLifecycle.JobChange {
        JobLifecycle.JobChange(updated: time, state: state, outputs: [], audioSeconds: 0, clearsExpiry: true)
    }

    @Test func retryingAFailedJobRunsItsFailedSectionsOnly() throws {
        let tasks = [
            Self.stored(.plan, 0, .done), Self.stored(.section, 1, .done), Self.stored(.section, 2, .failed),
            Self.stored(.section, 3, .failed), Self.stored(.finalize, 0, .done),
        ]
        let transition = try #require(Self.lifecycle.retried(jobState: .failed, tasks: tasks, now: Self.now))
        #expect(
            transition
                == Transition(
                    job: Self.reopened(.running),
                    resetTasks: [TaskKey(kind: .section, section: 2), TaskKey(kind: .section, section: 3)],
                    dropsTasks: [TaskKey(kind: .finalize, section: 0)], events: [.state(.running)]))
        #expect(transition.queuesWork)
    }

    @Test func retryingAFailedPlanStartsTheJobOver() throws {
        let transition = try #require(
            Self.lifecycle.retried(jobState: .failed, tasks: [Self.stored(.plan, 0, .failed)], now: Self.now))
        #expect(
            transition
                == Transition(
                    job: Self.reopened(.queued), resetTasks: [TaskKey(kind: .plan, section: 0)],
                    events: [.state(.queued)]))
    }

    @Test func retryingAFailedFinalizeRunsItAlone() throws {
        let tasks = [Self.stored(.plan, 0, .done), Self.stored(.section, 1, .done), Self.stored(.finalize, 0, .failed)]
        let transition = try #require(Self.lifecycle.retried(jobState: .failed, tasks: tasks, now: Self.now))
        #expect(transition.resetTasks == [TaskKey(kind: .finalize, section: 0)] && transition.dropsTasks.isEmpty)
        #expect(transition.job == Self.reopened(.running))
    }

    @Test(arguments: JobState.allCases) func onlyAFailedJobWithFailedTasksIsRetried(_ state: JobState) {
        let failedSection = [Self.stored(.plan, 0, .done), Self.stored(.section, 1, .failed)]
        #expect(
            (Self.lifecycle.retried(jobState: state, tasks: failedSection, now: Self.now) != nil) == (state == .failed))
        #expect(Self.lifecycle.retried(jobState: state, tasks: [Self.stored(.plan, 0, .done)], now: Self.now) == nil)
    }

    // MARK: Events as stored

    @Test func eventsAreTheDocumentedJSON() throws {
        let expected: [(JobLifecycle.Event, String, String)] = [
            (.state(.queued), "state", #"{"state":"queued"}"#),
            (
                .state(.failed, error: "1 section(s) failed", audioSeconds: 2.5), "state",
                #"{"audioSeconds":2.5,"error":"1 section(s) failed","state":"failed"}"#
            ),
            (.planned(sections: [2, 5]), "planned", #"{"sections":[2,5]}"#),
            (
                .sectionDone(section: 2, file: "002 - A/B.wav", durationSeconds: 1.5), "section",
                #"{"durationSeconds":1.5,"file":"002 - A/B.wav","section":2,"state":"done"}"#
            ),
            (.sectionFailed(section: 3, message: "x"), "section", #"{"message":"x","section":3,"state":"failed"}"#),
            (
                .retry(task: .finalize, section: 0, attempt: 2, message: "y", delaySeconds: 3.14159), "retry",
                #"{"attempt":2,"delaySeconds":3.142,"message":"y","section":0,"task":"finalize"}"#
            ),
        ]
        for (event, type, json) in expected {
            #expect(event.type == type)
            #expect(try event.json() == json)
        }
    }
}
