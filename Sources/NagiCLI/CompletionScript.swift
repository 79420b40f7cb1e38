import NagiOptions

/// Shell completion scripts generated from the command specs.
///
/// bash and zsh share one set of POSIX `case` tables (what each command path has: subcommands,
/// options, which options take a value, what a value or positional completes to); each shell adds
/// only the walk over the words typed so far. fish gets `complete` lines.
enum CompletionScript {
    /// Every command with its path below the root (`""` for the root, `"course export"`).
    static func commands(of root: CommandSpec) -> [(path: String, spec: CommandSpec)] {
        var result: [(String, CommandSpec)] = []
        func visit(_ spec: CommandSpec, path: String) {
            result.append((path, spec))
            for subcommand in spec.subcommands {
                visit(subcommand, path: path.isEmpty ? subcommand.name : path + " " + subcommand.name)
            }
        }
        visit(root, path: "")
        return result
    }

    /// What a value completes to, as one word the shell functions understand:
    /// `words:a b c`, `file`, `folder`, `patterns`, `soundscapes`, `courses`, `sessions`, `commands`.
    static func kindWord(allowedValues: [String]?, completion: CompletionKind?) -> String? {
        if let allowedValues { return "words:" + allowedValues.joined(separator: " ") }
        switch completion {
        case .file: return "file"
        case .folder: return "folder"
        case .patterns: return "patterns"
        case .soundscapes: return "soundscapes"
        case .courses: return "courses"
        case .sessions: return "sessions"
        case .commands: return "commands"
        case .words(let words): return "words:" + words.joined(separator: " ")
        case nil: return nil
        }
    }

    /// `'text'` for any POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// The shared tables, as POSIX shell functions valid in bash and zsh.
    static func tables(root: CommandSpec) -> String {
        let all = commands(of: root)
        var text = "__nagi_subcommands() {\n  case \"$1\" in\n"
        for (path, spec) in all where !spec.subcommands.isEmpty {
            text += "    \(quoted(path))) echo \(quoted(spec.subcommands.map(\.name).joined(separator: " "))) ;;\n"
        }
        text += "  esac\n}\n\n__nagi_options() {\n  case \"$1\" in\n"
        for (path, spec) in all {
            let names = spec.options.flatMap(\.names) + ArgumentParser.helpNames
            text += "    \(quoted(path))) echo \(quoted(names.joined(separator: " "))) ;;\n"
        }
        text += "  esac\n}\n\n__nagi_value_options() {\n  case \"$1\" in\n"
        for (path, spec) in all {
            let names = spec.options.filter(\.takesValue).flatMap(\.names)
            guard !names.isEmpty else { continue }
            text += "    \(quoted(path))) echo \(quoted(names.joined(separator: " "))) ;;\n"
        }
        text += "  esac\n}\n\n# What the value of option $2 of command $1 completes to.\n__nagi_value_kind() {\n  case \"$1 $2\" in\n"
        for (path, spec) in all {
            for option in spec.options where option.takesValue {
                guard let kind = kindWord(allowedValues: option.allowedValues, completion: option.completion) else { continue }
                let patterns = option.names.map { quoted(path + " " + $0) }.joined(separator: "|")
                text += "    \(patterns)) echo \(quoted(kind)) ;;\n"
            }
        }
        text += "  esac\n}\n\n# What positional number $2 (from 1) of command $1 completes to.\n__nagi_positional_kind() {\n  case \"$1 $2\" in\n"
        for (path, spec) in all where spec.subcommands.isEmpty {
            for (index, positional) in spec.positionals.enumerated() {
                guard let kind = kindWord(allowedValues: nil, completion: positional.completion) else { continue }
                text += "    \(quoted(path + " " + String(index + 1)))) echo \(quoted(kind)) ;;\n"
            }
        }
        text += "  esac\n}\n\n__nagi_contains() {\n  case \" $1 \" in *\" $2 \"*) return 0 ;; esac\n  return 1\n}\n"
        return text
    }

    /// The walk both shells share, over `__nagi_words` (the words before the cursor, program name
    /// excluded): sets `__nagi_path`, `__nagi_positionals`, `__nagi_after` (the option whose value
    /// the cursor is at, if any). Written in the common subset of bash and zsh.
    static let walk = """
    __nagi_walk() {
      __nagi_path=""
      __nagi_positionals=""
      __nagi_count=0
      __nagi_after=""
      local word skip=""
      for word in "$@"; do
        if [ -n "$skip" ]; then skip=""; continue; fi
        case "$word" in
          --) continue ;;
          -*=*) continue ;;
          -*)
            if __nagi_contains "$(__nagi_value_options "$__nagi_path")" "$word"; then skip="$word"; fi
            continue ;;
        esac
        if [ -n "$(__nagi_subcommands "$__nagi_path")" ] && __nagi_contains "$(__nagi_subcommands "$__nagi_path")" "$word"; then
          __nagi_path="${__nagi_path:+$__nagi_path }$word"
        else
          __nagi_count=$((__nagi_count + 1))
          __nagi_positionals="${__nagi_positionals:+$__nagi_positionals }$word"
        fi
      done
      __nagi_after="$skip"
    }

    # The candidate words for kind $1 (files and folders are left to the shell).
    __nagi_words_of_kind() {
      case "$1" in
        words:*) echo "${1#words:}" ;;
        patterns) command nagi presets --names patterns 2>/dev/null ;;
        soundscapes) command nagi presets --names soundscapes 2>/dev/null ;;
        courses) command nagi presets --names courses 2>/dev/null ;;
        sessions) command nagi presets --names courses 2>/dev/null; command nagi presets --names patterns 2>/dev/null ;;
        commands) __nagi_subcommands "$__nagi_positionals" ;;
      esac
    }

    # The kind of what the cursor is at: options, a value or a positional.
    __nagi_kind_here() {
      if [ -n "$__nagi_after" ]; then __nagi_value_kind "$__nagi_path" "$__nagi_after"; return; fi
      case "$1" in -*) echo options; return ;; esac
      if [ -n "$(__nagi_subcommands "$__nagi_path")" ]; then echo "words:$(__nagi_subcommands "$__nagi_path")"; return; fi
      __nagi_positional_kind "$__nagi_path" $((__nagi_count + 1))
    }

    # What both shells' completion functions do first: walk the words before the cursor ($2 on) and set
    # __nagi_kind to the kind of the word at the cursor ($1). Not in a $(...) subshell: the walk's
    # variables must survive for the options it lists.
    __nagi_locate() {
      local cur="$1"
      shift
      __nagi_walk "$@"
      __nagi_kind="$(__nagi_kind_here "$cur")"
    }
    """

    /// The tables and the walk: every shell function bash and zsh share.
    static func sharedFunctions(root: CommandSpec) -> String {
        tables(root: root) + "\n" + walk
    }

    static func bash(root: CommandSpec) -> String {
        """
        # bash completion for nagi, generated by `nagi completions bash` from nagi's command specs.
        # Install: nagi completions bash > ~/.local/share/bash-completion/completions/nagi

        \(sharedFunctions(root: root))

        _nagi() {
          local cur="${COMP_WORDS[COMP_CWORD]}"
          __nagi_locate "$cur" "${COMP_WORDS[@]:1:COMP_CWORD-1}"
          COMPREPLY=()
          case "$__nagi_kind" in
            options) COMPREPLY=($(compgen -W "$(__nagi_options "$__nagi_path")" -- "$cur")) ;;
            file) COMPREPLY=($(compgen -f -- "$cur")) ;;
            folder) COMPREPLY=($(compgen -d -- "$cur")) ;;
            patterns|soundscapes|courses) COMPREPLY=($(compgen -W "$(__nagi_words_of_kind "$__nagi_kind")" -- "$cur") $(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur")) ;;
            "") ;;
            *) COMPREPLY=($(compgen -W "$(__nagi_words_of_kind "$__nagi_kind")" -- "$cur")) ;;
          esac
        }
        complete -o filenames -F _nagi nagi

        """
    }

    static func zsh(root: CommandSpec) -> String {
        """
        #compdef nagi
        # zsh completion for nagi, generated by `nagi completions zsh` from nagi's command specs.
        # Install: nagi completions zsh > ~/.zfunc/_nagi, with fpath+=(~/.zfunc) before compinit.

        \(sharedFunctions(root: root))

        _nagi() {
          local cur="${words[CURRENT]}"
          __nagi_locate "$cur" "${(@)words[2,CURRENT-1]}"
          case "$__nagi_kind" in
            options) compadd -- ${=$(__nagi_options "$__nagi_path")} ;;
            file) _files ;;
            folder) _files -/ ;;
            patterns|soundscapes|courses) compadd -- ${(f)"$(__nagi_words_of_kind "$__nagi_kind")"}; _files -g '*.json' ;;
            "") ;;
            *) compadd -- ${=$(__nagi_words_of_kind "$__nagi_kind")} ;;
          esac
        }

        if [ "$funcstack[1]" = "_nagi" ]; then
          _nagi "$@"
        else
          compdef _nagi nagi
        fi

        """
    }

    static func fish(root: CommandSpec) -> String {
        let all = commands(of: root)
        var lines = [
            "# fish completion for nagi, generated by `nagi completions fish` from nagi's command specs.",
            "# Install: nagi completions fish > ~/.config/fish/completions/nagi.fish",
            "complete -c nagi -f",
        ]
        func condition(_ path: String, spec: CommandSpec, parent: CommandSpec?) -> String {
            if path.isEmpty { return "__fish_use_subcommand" }
            let words = path.split(separator: " ").map(String.init)
            var parts = words.map { "__fish_seen_subcommand_from \($0)" }
            if !spec.subcommands.isEmpty {
                parts.append("not __fish_seen_subcommand_from " + spec.subcommands.map(\.name).joined(separator: " "))
            }
            return parts.joined(separator: "; and ")
        }
        func fishQuoted(_ text: String) -> String {
            "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
        }
        func valueArguments(_ kind: String?) -> String {
            switch kind {
            case nil: return " -r"
            case "file"?: return " -r -F"
            case "folder"?: return " -r -a '(__fish_complete_directories)'"
            case "patterns"?, "soundscapes"?, "courses"?:
                return " -r -F -a " + fishQuoted("(nagi presets --names \(kind ?? "") 2>/dev/null)")
            case "sessions"?:
                return " -x -a " + fishQuoted("(nagi presets --names courses 2>/dev/null; nagi presets --names patterns 2>/dev/null)")
            case let kind? where kind.hasPrefix("words:"):
                return " -x -a " + fishQuoted(String(kind.dropFirst(6)))
            default: return " -r"
            }
        }
        for (path, spec) in all {
            let when = fishQuoted(condition(path, spec: spec, parent: nil))
            for subcommand in spec.subcommands {
                lines.append("complete -c nagi -n \(when) -a \(subcommand.name) -d \(fishQuoted(subcommand.summary))")
            }
            for option in spec.options {
                var line = "complete -c nagi -n \(when)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst(1))"
                }
                if option.takesValue {
                    line += valueArguments(kindWord(allowedValues: option.allowedValues, completion: option.completion))
                }
                lines.append(line + " -d " + fishQuoted(firstSentence(option.help)))
            }
            if spec.subcommands.isEmpty, let first = spec.positionals.first, let kind = kindWord(allowedValues: nil, completion: first.completion) {
                switch kind {
                case "patterns", "soundscapes", "courses":
                    lines.append("complete -c nagi -n \(when) -F -a " + fishQuoted("(nagi presets --names \(kind) 2>/dev/null)"))
                case "commands":
                    lines.append("complete -c nagi -n \(when) -a " + fishQuoted(root.subcommands.map(\.name).joined(separator: " ")))
                case let kind where kind.hasPrefix("words:"):
                    lines.append("complete -c nagi -n \(when) -a " + fishQuoted(String(kind.dropFirst(6))))
                default:
                    lines.append("complete -c nagi -n \(when) -F")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help text up to its first full stop, for one-line descriptions.
    static func firstSentence(_ text: String) -> String {
        guard let end = text.firstRange(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }
}
