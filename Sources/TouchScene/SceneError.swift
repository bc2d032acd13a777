import TouchJSON

/// A scene that cannot be used: `scene.json:14: regions[1].children[0].frame: width must not be negative`.
public typealias SceneError = JSONFileError
