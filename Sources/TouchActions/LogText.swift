import TouchPosix

/// Text from outside (the actions file, touchd's replies) made safe for a message: `ShownText`'s rule.
public enum LogText {
    public static func printable(_ text: String) -> String { ShownText.printable(text) }
}
