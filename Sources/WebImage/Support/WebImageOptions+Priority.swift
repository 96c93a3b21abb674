extension WebImageOptions {
    /// The task priority for ``highPriority`` and ``lowPriority`` (high wins when both are set).
    var taskPriority: TaskPriority { explicitTaskPriority ?? .medium }

    /// The priority of work started for the calling task: ``highPriority`` or ``lowPriority``
    /// when set, else the caller's own, as a child task would inherit it. Work at another
    /// priority than its caller's runs on another of the runtime's thread pools, which adds
    /// threads and context switches for nothing the caller asked for.
    var inheritedTaskPriority: TaskPriority { explicitTaskPriority ?? Task.currentPriority }

    private var explicitTaskPriority: TaskPriority? {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return nil
    }
}
