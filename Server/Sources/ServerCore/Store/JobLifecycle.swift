import Foundation

/// The job and task state machine as a pure value: from what is stored and what happened, the rows
/// to change and the events to append. It reads and writes nothing; both stores (`SQLiteJobStore`,
/// `PostgresJobStore`) read what it needs under their own locks, ask it, and apply its
/// `Transition` in the same transaction, so the two stores cannot disagree on what a job goes
/// through (docs/service.md, "How a job runs").
///
/// A job: queued → running (its plan task claimed) → succeeded | failed | cancelled. A task:
/// queued → running (claimed, under a lease) → done | failed | cancelled, or back to queued for
/// another attempt, not before a wait (`RetryPolicy`), while attempts remain and a retry may help. The plan task queues one task per
/// section; the last section to settle (done or failed for good) queues the finalize task; the
/// finalize task finishes the job. A plan or finalize task that fails for good fails the job.
package struct JobLifecycle: Sendable {
    /// How long a finished job's outputs are kept, in seconds.
    package var outputLifetime: TimeInterval
    /// How many attempts a task gets, and how long it waits between them.
    package var retries: RetryPolicy

    package init(outputLifetime: TimeInterval, retries: RetryPolicy = RetryPolicy()) {
        self.outputLifetime = outputLifetime
        self.retries = retries
    }

    /// How many attempts a task gets before a transient failure is final.
    package var maxAttempts: Int { retries.maxAttempts }

    /// The state a new job's row starts in.
    package static let initialState = JobState.queued

    /// What the message of a task whose worker stopped renewing its lease says.
    package static let leaseExpiredMessage = "the worker stopped answering (lease expired)"

    // MARK: Steps

    /// A job was created (its row inserted in `initialState`): its plan task is queued.
    package func created() -> Transition {
        Transition(newTasks: [TaskKey(kind: .plan, section: 0)], events: [.state(Self.initialState)])
    }

    /// A worker takes the queued task `stored` (the store chose it and holds it) for `lease` seconds;
    /// a queued job starts with it.
    package func claimed(_ stored: StoredTask, by owner: String, lease: TimeInterval, jobState: JobState, now: Date)
        -> Transition
    {
        let time = now.timeIntervalSince1970
        var transition = Transition(
            task: .claimed(owner: owner, attempt: stored.attempts + 1, leaseUntil: time + lease))
        if jobState == .queued {
            transition.job = JobChange(updated: time, state: .running)
            transition.events = [.state(.running)]
        }
        return transition
    }

    /// An attempt reports how it ended. `stored` is the task as stored, `jobState` its job's (nil:
    /// no such job), `openSections` how many of the job's section tasks are queued or running
    /// (this task included when it is one).
    ///
    /// - Returns: nil when the attempt no longer holds the task (its lease expired and the task was
    ///   given to another attempt, or it is over): nothing changes.
    package func completed(
        _ attempt: ClaimedTask, outcome: TaskOutcome, stored: StoredTask?, jobState: JobState?, openSections: Int,
        now: Date
    ) -> Transition? {
        guard let stored, stored.state == .running, stored.owner == attempt.owner, stored.attempts == attempt.attempt
        else { return nil }
        // Cancelled meanwhile: the result is not wanted.
        guard jobState == .running else { return Transition(task: .settled(.cancelled, result: nil, error: nil)) }
        let time = now.timeIntervalSince1970
        switch outcome {
        case .planned(let plan):
            return Transition(
                task: .settled(.done, result: nil, error: nil), job: JobChange(updated: time, plan: plan),
                newTasks: plan.sections.map { TaskKey(kind: .section, section: $0) },
                events: [.planned(sections: plan.sections)])
        case .sectionDone(let result):
            return Transition(
                task: .settled(.done, result: result, error: nil),
                newTasks: finalizeWhenLast(stored, openSections: openSections),
                events: [
                    .sectionDone(
                        section: stored.key.section, file: result.file, durationSeconds: result.durationSeconds)
                ])
        case .finalized(let outputs, let audioSeconds, let failedSections):
            let state: JobState = failedSections > 0 ? .failed : .succeeded
            let error = failedSections > 0 ? "\(failedSections) section(s) failed" : nil
            return Transition(
                task: .settled(.done, result: nil, error: nil),
                job: JobChange(
                    updated: time, state: state, error: error, outputs: outputs, audioSeconds: audioSeconds,
                    expires: time + outputLifetime),
                events: [.state(state, error: error, audioSeconds: audioSeconds)])
        case .failed(let message, let retry):
            return failed(stored, message: message, retry: retry, openSections: openSections, time: time)
        }
    }

    /// A worker that shuts down gives back the task `attempt` it holds and has not finished: queued
    /// again at once for another worker, the attempt not counted (nothing failed), no event. The
    /// arguments are `completed`'s.
    ///
    /// - Returns: nil when the attempt no longer holds the task: nothing changes.
    package func released(_ attempt: ClaimedTask, stored: StoredTask?, jobState: JobState?) -> Transition? {
        guard let stored, stored.state == .running, stored.owner == attempt.owner, stored.attempts == attempt.attempt
        else { return nil }
        guard jobState == .running || jobState == .queued else {
            return Transition(task: .settled(.cancelled, result: nil, error: nil))
        }
        return Transition(task: .released(attempts: stored.attempts - 1))
    }

    /// The lease of the running task `stored` ran out: its worker stopped answering. Another attempt
    /// while attempts remain; nothing more when its job is no longer running. The arguments are
    /// `completed`'s.
    package func leaseExpired(_ stored: StoredTask, jobState: JobState?, openSections: Int, now: Date) -> Transition {
        guard jobState == .running else { return Transition(task: .settled(.cancelled, result: nil, error: nil)) }
        return failed(
            stored, message: Self.leaseExpiredMessage, retry: true, openSections: openSections,
            time: now.timeIntervalSince1970)
    }

    /// A client asks that the failed job be run again (`POST /v1/jobs/{id}/retry`): its failed
    /// tasks (`tasks`: the job's tasks as stored) are queued again with all their attempts, nothing
    /// else. A failed plan starts the job over (queued); failed sections run again and the finalize
    /// task, queued anew when the last of them settles, puts the job together again; a failed
    /// finalize alone runs again.
    ///
    /// - Returns: nil when the job is not failed, or has no failed task to run again: nothing changes.
    package func retried(jobState: JobState, tasks: [StoredTask], now: Date) -> Transition? {
        guard jobState == .failed else { return nil }
        let failed = tasks.filter { $0.state == .failed }.map(\.key)
        let time = now.timeIntervalSince1970
        let reopened = { (state: JobState) in
            JobChange(updated: time, state: state, outputs: [], audioSeconds: 0, clearsExpiry: true)
        }
        if failed.contains(where: { $0.kind == .plan }) {
            return Transition(
                job: reopened(.queued), resetTasks: [TaskKey(kind: .plan, section: 0)], events: [.state(.queued)])
        }
        let sections = failed.filter { $0.kind == .section }.sorted { $0.section < $1.section }
        if !sections.isEmpty {
            return Transition(
                job: reopened(.running), resetTasks: sections, dropsTasks: [TaskKey(kind: .finalize, section: 0)],
                events: [.state(.running)])
        }
        if failed.contains(where: { $0.kind == .finalize }) {
            return Transition(
                job: reopened(.running), resetTasks: [TaskKey(kind: .finalize, section: 0)],
                events: [.state(.running)])
        }
        return nil
    }

    /// A client cancels a job in `jobState`: a finished job stays as it is; else it is cancelled, its
    /// queued tasks dropped, and its running ones stop at their next heartbeat (which sees it cancelled).
    package func cancelled(jobState: JobState, now: Date) -> Transition {
        guard !jobState.isTerminal else { return Transition() }
        let time = now.timeIntervalSince1970
        return Transition(
            job: JobChange(updated: time, state: .cancelled, expires: time + outputLifetime),
            cancelsQueuedTasks: true, events: [.state(.cancelled)])
    }

    // MARK: Rules

    /// A failed attempt: back to the queue, after a wait, while attempts remain and a retry may help;
    /// else failed for good (a failed section still lets the job finalize; a plan or finalize task
    /// fails the job).
    private func failed(_ stored: StoredTask, message: String, retry: Bool, openSections: Int, time: Double)
        -> Transition
    {
        let key = stored.key
        if retry && retries.retries(after: stored.attempts) {
            let delay = retries.delay(after: stored.attempts)
            return Transition(
                task: .requeued(error: message, notBefore: time + delay),
                events: [
                    .retry(
                        task: key.kind, section: key.section, attempt: stored.attempts, message: message,
                        delaySeconds: delay)
                ])
        }
        let settled = TaskChange.settled(.failed, result: nil, error: message)
        switch key.kind {
        case .section:
            return Transition(
                task: settled, newTasks: finalizeWhenLast(stored, openSections: openSections),
                events: [.sectionFailed(section: key.section, message: message)])
        case .plan, .finalize:
            return Transition(
                task: settled,
                job: JobChange(updated: time, state: .failed, error: message, expires: time + outputLifetime),
                events: [.state(.failed, error: message)])
        }
    }

    /// The finalize task, once the section `stored` settles and no other section is left to run.
    private func finalizeWhenLast(_ stored: StoredTask, openSections: Int) -> [TaskKey] {
        let others = openSections - (stored.key.kind == .section && stored.state.isOpen ? 1 : 0)
        return others > 0 ? [] : [TaskKey(kind: .finalize, section: 0)]
    }
}

// MARK: - What the lifecycle reads

/// A task's place in its job: its kind and its section (0 for the plan and finalize tasks).
package struct TaskKey: Hashable, Sendable {
    package var kind: TaskKind
    package var section: Int

    package init(kind: TaskKind, section: Int) {
        self.kind = kind
        self.section = section
    }
}

/// The states a task goes through: queued → running → done | failed | cancelled, or back to queued.
package enum TaskState: String, Sendable, CaseIterable {
    case queued, running, done, failed, cancelled

    /// True while the task may still run: what keeps its job from finalizing.
    package var isOpen: Bool { self == .queued || self == .running }
}

/// A task as stored: what the lifecycle decides from.
package struct StoredTask: Equatable, Sendable {
    package var key: TaskKey
    package var state: TaskState
    /// The worker slot holding it, or the last one that did.
    package var owner: String?
    /// Attempts started so far (the running one included).
    package var attempts: Int

    package init(key: TaskKey, state: TaskState, owner: String?, attempts: Int) {
        self.key = key
        self.state = state
        self.owner = owner
        self.attempts = attempts
    }
}

// MARK: - What the lifecycle decides

extension JobLifecycle {
    /// The changes one step makes, for a store to apply in one transaction; an empty one changes
    /// nothing.
    package struct Transition: Equatable, Sendable {
        /// The new state of the task the step is about; nil leaves it as it is.
        package var task: TaskChange?
        /// The job's row; nil leaves it as it is.
        package var job: JobChange?
        /// The job's tasks to queue (an existing task of the same key is left as it is).
        package var newTasks: [TaskKey] = []
        /// Every queued task of the job is cancelled (and loses its owner).
        package var cancelsQueuedTasks = false
        /// The job's tasks queued again as new: no owner, no lease, no wait, no attempt made (their
        /// last error kept until they succeed).
        package var resetTasks: [TaskKey] = []
        /// The job's tasks removed (a finalize task to be queued anew).
        package var dropsTasks: [TaskKey] = []
        /// The job's events to append, in this order.
        package var events: [Event] = []

        package init(
            task: TaskChange? = nil, job: JobChange? = nil, newTasks: [TaskKey] = [], cancelsQueuedTasks: Bool = false,
            resetTasks: [TaskKey] = [], dropsTasks: [TaskKey] = [], events: [Event] = []
        ) {
            self.task = task
            self.job = job
            self.newTasks = newTasks
            self.cancelsQueuedTasks = cancelsQueuedTasks
            self.resetTasks = resetTasks
            self.dropsTasks = dropsTasks
            self.events = events
        }

        /// True when the step finishes the job (succeeded, or failed for good): its callback, if it
        /// names one, is to be sent (`CallbackQueue`). A cancelled job does not call back.
        package var callsBack: Bool { job?.state == .succeeded || job?.state == .failed }

        /// True when a task is queued or queued again: idle workers should look.
        package var queuesWork: Bool {
            if case .requeued = task { return true }
            if case .released = task { return true }
            return !newTasks.isEmpty || !resetTasks.isEmpty
        }
    }

    /// What happens to a task's row.
    package enum TaskChange: Equatable, Sendable {
        /// Running, held by `owner` for attempt `attempt` until `leaseUntil` (seconds since 1970).
        case claimed(owner: String, attempt: Int, leaseUntil: Double)
        /// Over (done, failed or cancelled): the lease dropped; a section's result and a failure's
        /// message stored.
        case settled(TaskState, result: SectionResult?, error: String?)
        /// Back in the queue for another attempt, not claimed before `notBefore` (seconds since
        /// 1970): no owner, no lease, the failure's message kept.
        case requeued(error: String, notBefore: Double)
        /// Back in the queue as if the attempt had not started (its worker shut down): no owner, no
        /// lease, `attempts` started so far.
        case released(attempts: Int)
    }

    /// New values for a job's row; nil leaves a column as it is.
    package struct JobChange: Equatable, Sendable {
        /// Always written (seconds since 1970).
        package var updated: Double
        package var state: JobState?
        /// Written with `state` (nil then clears it), never without.
        package var error: String?
        package var plan: JobPlan?
        package var outputs: [OutputRecord]?
        package var audioSeconds: Double?
        /// When a finished job's outputs are removed (seconds since 1970).
        package var expires: Double?
        /// The job runs again: it has no expiry (`expires` is then nil).
        package var clearsExpiry = false

        package init(
            updated: Double, state: JobState? = nil, error: String? = nil, plan: JobPlan? = nil,
            outputs: [OutputRecord]? = nil, audioSeconds: Double? = nil, expires: Double? = nil,
            clearsExpiry: Bool = false
        ) {
            self.clearsExpiry = clearsExpiry
            self.updated = updated
            self.state = state
            self.error = error
            self.plan = plan
            self.outputs = outputs
            self.audioSeconds = audioSeconds
            self.expires = expires
        }
    }

    /// A job's progress event, before the store gives it an id (docs/service.md, "Events").
    package enum Event: Equatable, Sendable {
        /// The job's state changed; a failure says why, a finished job how long its audio is.
        case state(JobState, error: String? = nil, audioSeconds: Double? = nil)
        /// The plan chose these sections.
        case planned(sections: [Int])
        case sectionDone(section: Int, file: String, durationSeconds: Double)
        case sectionFailed(section: Int, message: String)
        /// Attempt `attempt` of a task failed; another follows in `delaySeconds`.
        case retry(task: TaskKind, section: Int, attempt: Int, message: String, delaySeconds: Double)

        /// The event's `type`.
        package var type: String {
            switch self {
            case .state: return "state"
            case .planned: return "planned"
            case .sectionDone, .sectionFailed: return "section"
            case .retry: return "retry"
            }
        }

        /// The event's data, a JSON object with sorted keys.
        /// - Throws: when a number cannot be written in JSON (not finite).
        package func json() throws -> String {
            let object: [String: Any]
            switch self {
            case .state(let state, let error, let audioSeconds):
                var data: [String: Any] = ["state": state.rawValue]
                if let error { data["error"] = error }
                if let audioSeconds { data["audioSeconds"] = audioSeconds }
                object = data
            case .planned(let sections):
                object = ["sections": sections]
            case .sectionDone(let section, let file, let durationSeconds):
                object = ["section": section, "state": "done", "file": file, "durationSeconds": durationSeconds]
            case .sectionFailed(let section, let message):
                object = ["section": section, "state": "failed", "message": message]
            case .retry(let task, let section, let attempt, let message, let delaySeconds):
                object = [
                    "task": task.rawValue, "section": section, "attempt": attempt, "message": message,
                    // Milliseconds are enough, and keep the event short.
                    "delaySeconds": (delaySeconds * 1000).rounded() / 1000,
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        }
    }
}
