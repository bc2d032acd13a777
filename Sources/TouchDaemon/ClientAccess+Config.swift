import TouchEngine

extension ClientAccess {
    /// Resolves names with `lookup`; every name that names no group is reported (it grants nothing).
    static func resolve(_ config: Config, lookup: (String) -> UInt32?) -> (access: ClientAccess, warnings: [String]) {
        var warnings: [String] = []
        func ids(_ names: [String], _ key: String) -> Set<UInt32> {
            var result: Set<UInt32> = []
            for name in names {
                if let id = lookup(name) {
                    result.insert(id)
                } else {
                    warnings.append(
                        config.origin.error("clients.\(key)", "no group '\(name)' on this system; it grants nothing")
                            .description)
                }
            }
            return result
        }
        let access = ClientAccess(
            subscribeGroups: ids(config.clients.subscribeGroups, "subscribeGroups"),
            restrictsSubscribers: !config.clients.subscribeGroups.isEmpty,
            sceneGroups: ids(config.clients.sceneGroups, "sceneGroups"),
            maximum: config.clients.maximum, reserved: config.clients.reserved)
        return (access, warnings)
    }
}
