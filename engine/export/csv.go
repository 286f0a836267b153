package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"schedplay/engine/sim"
)

// repColumn is one scalar column of the results CSV.
type repColumn struct {
	name string
	get  func(*sim.RepMetrics) float64
}

// repColumns lists every RepMetrics scalar in output order. Times are in
// nanoseconds (the column names say so), as in the JSON result.
var repColumns = []repColumn{
	{"seed", func(r *sim.RepMetrics) float64 { return float64(r.Seed) }},
	{"throughput", func(r *sim.RepMetrics) float64 { return r.Throughput }},
	{"gflops", func(r *sim.RepMetrics) float64 { return r.GFLOPS }},
	{"completion_ns", func(r *sim.RepMetrics) float64 { return float64(r.Completion) }},
	{"elapsed_ns", func(r *sim.RepMetrics) float64 { return float64(r.Elapsed) }},
	{"mode_transitions", func(r *sim.RepMetrics) float64 { return float64(r.ModeTransitions) }},
	{"pe_alternations", func(r *sim.RepMetrics) float64 { return float64(r.PEAlternations) }},
	{"migrations_wakeup", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Wakeup) }},
	{"migrations_periodic", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Periodic) }},
	{"migrations_newidle", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Newidle) }},
	{"migrations_nohz", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Nohz) }},
	{"migrations_active", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Active) }},
	{"migrations_misfit", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Misfit) }},
	{"migrations_asym", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Asym) }},
	{"migrations_rt", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.RT) }},
	{"migrations_total", func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Total) }},
	{"context_switches", func(r *sim.RepMetrics) float64 { return float64(r.ContextSwitches) }},
	{"wakeups", func(r *sim.RepMetrics) float64 { return float64(r.Wakeups) }},
	{"rt_throttled_ns", func(r *sim.RepMetrics) float64 { return float64(r.RTThrottledNs) }},
	{"fair_server_ns", func(r *sim.RepMetrics) float64 { return float64(r.FairServerNs) }},
	{"latency_count", func(r *sim.RepMetrics) float64 { return float64(r.Latency.Count) }},
	{"latency_p50_ns", func(r *sim.RepMetrics) float64 { return float64(r.Latency.P50) }},
	{"latency_p99_ns", func(r *sim.RepMetrics) float64 { return float64(r.Latency.P99) }},
	{"latency_p999_ns", func(r *sim.RepMetrics) float64 { return float64(r.Latency.P999) }},
	{"latency_max_ns", func(r *sim.RepMetrics) float64 { return float64(r.Latency.Max) }},
	{"latency_mean_ns", func(r *sim.RepMetrics) float64 { return r.Latency.Mean }},
	{"ops", func(r *sim.RepMetrics) float64 { return float64(r.Ops) }},
	{"op_time_ns", func(r *sim.RepMetrics) float64 { return r.OpTimeNs }},
}

// summaryRows are the statistics of the summary block, in output order.
var summaryRows = []string{"mean", "stddev", "min", "max", "n"}

// ResultsCSV writes one row per repetition with every RepMetrics scalar,
// then a blank line and a summary block (mean, sample stddev, min, max and
// n of each column over the repetitions). The first column is "row": the
// repetition index (0, 1, …) or the statistic's name. The seed column has
// no meaningful statistics and is left empty in the summary. The
// workload's timed sections follow the fixed columns (csv_timed.go).
//
// The output is deterministic: columns in a fixed order, numbers in Go's
// shortest round-trip form.
func ResultsCSV(w io.Writer, r *sim.Result) error {
	cw := csv.NewWriter(w)
	columns := append(slices.Clip(repColumns), timedColumns(r)...)
	head := make([]string, 0, len(columns)+1)
	head = append(head, "row")
	for _, c := range columns {
		head = append(head, c.name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	cols := make([][]float64, len(columns))
	for i := range r.Reps {
		rep := &r.Reps[i]
		row := []string{strconv.Itoa(i)}
		for j, c := range columns {
			v := c.get(rep)
			cols[j] = append(cols[j], v)
			if j == 0 {
				row = append(row, strconv.FormatUint(rep.Seed, 10))
				continue
			}
			row = append(row, formatNum(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	if err := cw.Write(nil); err != nil {
		return err
	}
	for _, name := range summaryRows {
		row := []string{name}
		for j, vals := range cols {
			if j == 0 {
				row = append(row, "")
				continue
			}
			row = append(row, formatNum(stat(vals, name)))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// stat computes one summary statistic of vals (sample stddev, n−1);
// empty cells (NaN) are left out.
func stat(vals []float64, name string) float64 {
	vals = slices.DeleteFunc(slices.Clone(vals), math.IsNaN)
	n := len(vals)
	if name == "n" {
		return float64(n)
	}
	if n == 0 {
		return math.NaN()
	}
	var sum float64
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		sum += v
		lo = math.Min(lo, v)
		hi = math.Max(hi, v)
	}
	mean := sum / float64(n)
	switch name {
	case "mean":
		return mean
	case "min":
		return lo
	case "max":
		return hi
	}
	if n < 2 {
		return 0
	}
	var ss float64
	for _, v := range vals {
		d := v - mean
		ss += d * d
	}
	return math.Sqrt(ss / float64(n-1))
}

// formatNum prints integers without a fraction and other values in the
// shortest form that reads back to the same float64; NaN prints empty.
func formatNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ModeNames are the CSV column suffixes of sim.ModeResidency, in order.
var ModeNames = []string{"st", "smt", "partitioned", "switching", "idle"}

// CPUCSV writes the per-CPU and per-core figures of every repetition in
// long form, one row per (repetition, CPU): rep, cpu, core, busy_ns, and the
// core's residency per mode (st_ns, smt_ns, partitioned_ns, switching_ns,
// idle_ns; repeated on each CPU of the core so every row stands alone).
// cpuCore maps a CPU to its core index (topo.Topology.CPUs[i].Core); when
// it is nil or short, the core columns of the CPUs it does not cover are
// empty.
func CPUCSV(w io.Writer, r *sim.Result, cpuCore []int) error {
	cw := csv.NewWriter(w)
	head := []string{"rep", "cpu", "core", "busy_ns"}
	for _, m := range ModeNames {
		head = append(head, m+"_ns")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i := range r.Reps {
		rep := &r.Reps[i]
		for cpu, busy := range rep.BusyNs {
			row := []string{strconv.Itoa(i), strconv.Itoa(cpu), "", strconv.FormatInt(busy, 10)}
			core := -1
			if cpu < len(cpuCore) {
				core = cpuCore[cpu]
			}
			if core >= 0 && core < len(rep.ModeResidency) {
				row[2] = strconv.Itoa(core)
				m := rep.ModeResidency[core]
				for _, v := range []int64{m.ST, m.SMT, m.Partitioned, m.Switching, m.Idle} {
					row = append(row, strconv.FormatInt(v, 10))
				}
			} else {
				if core >= 0 {
					row[2] = strconv.Itoa(core)
				}
				row = append(row, "", "", "", "", "")
			}
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
