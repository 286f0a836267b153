package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// A line of results.jsonl is one unit:
//
//	{"unit":7,"point":{"policy.hz":1000},"policy":"v6-on","rep":1,"seed":2,"result":{…}}
//
// "result" is the body POST /api/v1/simulate replies for the unit's
// request, byte for byte (without its final newline). A unit whose
// request was refused for good (a 4xx: the scenario is invalid at that
// point) has "status" and "error" (the API's error reply) instead.

// Line returns unit u's line (with its newline) for the simulate reply
// body (a 200's result, or a 4xx's error when status is not 200).
func (p *Plan) Line(u Unit, status int, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"unit":%d,"point":{`, u.Index)
	for i, v := range p.vary {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(v.path)
		b.Write(k)
		b.WriteByte(':')
		json.Compact(&b, v.values[u.At[i]])
	}
	pol, _ := marshal(p.policies[u.Policy])
	fmt.Fprintf(&b, `},"policy":%s,"rep":%d,"seed":%d,`, pol, u.Rep, u.Seed)
	body = bytes.TrimSuffix(body, []byte("\n"))
	if status == 200 {
		b.WriteString(`"result":`)
	} else {
		fmt.Fprintf(&b, `"status":%d,"error":`, status)
	}
	b.Write(body)
	b.WriteString("}\n")
	return b.Bytes()
}

// Record is a decoded line: the unit and its reply.
type Record struct {
	Unit   int             `json:"unit"`
	Status int             `json:"status,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// ParseLine decodes one line of results.jsonl.
func ParseLine(line []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return r, err
	}
	if r.Result == nil && r.Error == nil {
		return r, fmt.Errorf("unit %d has neither result nor error", r.Unit)
	}
	if r.Result != nil {
		r.Status = 200
	}
	return r, nil
}

// ValueText is a varied value as a person reads it: a JSON string without
// its quotes, any other JSON as it is.
func ValueText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var c bytes.Buffer
	if json.Compact(&c, v) == nil {
		return c.String()
	}
	return strconv.Quote(string(v))
}
