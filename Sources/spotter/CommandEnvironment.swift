import Foundation
import Logging

/// Settings the commands read from the environment.
enum CommandEnvironment {
    static var logLevel: Logger.Level? {
        ProcessInfo.processInfo.environment["SPOTTER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
    }
}
