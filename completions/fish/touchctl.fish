# fish completion for touchctl (installed to /usr/share/fish/vendor_completions.d/touchctl.fish).
# Region ids come from the running daemon (touchctl scene get, one second at most).
function __touchctl_region_ids
    touchctl --timeout 1 scene get 2>/dev/null | string match -r -a -g '"id" *: *"([^"\\\\]*)"'
end
set -l commands monitor view ping devices scene region
complete -c touchctl -f
complete -c touchctl -l socket -r -F -d "touchd's socket"
complete -c touchctl -l timeout -x -d 'seconds to wait for a reply'
complete -c touchctl -s h -l help -d 'show the commands'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -s V -l version -d 'print the version'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a monitor -d 'print events as they come'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a view -d 'the scene live in the terminal'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a ping -d 'check the daemon answers'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a devices -d 'list the devices'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a scene -d 'get or set the scene'
complete -c touchctl -n "not __fish_seen_subcommand_from $commands" -a region -d 'update, add or remove a region'
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l raw -d 'the raw NDJSON lines'
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l events -x -a 'touch gesture frame region device scene'
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l regions -x -a '(__touchctl_region_ids)'
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l devices -x
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l fields -x
complete -c touchctl -n "__fish_seen_subcommand_from monitor" -l count -x
complete -c touchctl -n "__fish_seen_subcommand_from view" -l no-color -d 'no colours'
complete -c touchctl -n "__fish_seen_subcommand_from scene; and not __fish_seen_subcommand_from get set" -a 'get set'
complete -c touchctl -n "__fish_seen_subcommand_from scene; and __fish_seen_subcommand_from set" -F
complete -c touchctl -n "__fish_seen_subcommand_from region; and not __fish_seen_subcommand_from update add remove" -a 'update add remove'
complete -c touchctl -n "__fish_seen_subcommand_from region; and __fish_seen_subcommand_from update remove" -a '(__touchctl_region_ids)'
complete -c touchctl -n "__fish_seen_subcommand_from region; and __fish_seen_subcommand_from add" -l parent -x -a '(__touchctl_region_ids)'
