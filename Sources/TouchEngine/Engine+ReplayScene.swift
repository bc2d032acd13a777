extension Engine {
    /// Whether the scene as it now stands (regions a drag moved, containers a drag scrolled) is not the scene last
    /// installed (`scene`): a replay's loop puts the installed one back before its next pass.
    public var liveSceneDiffersFromInstalled: Bool { settings.dispatches && dispatcher.index.scene != scene }
}
