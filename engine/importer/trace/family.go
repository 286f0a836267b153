package trace

import "strings"

// family is a task name without its instance number: "nvpl/3", "nvpl-3",
// "nvpl_3" and "nvpl3" are all "nvpl" (the threads of one pool).
func family(comm string) string {
	s := strings.TrimRight(comm, "0123456789")
	if s == "" {
		return comm
	}
	return strings.TrimRight(s, "/-_:.#")
}
