package rtapp

import (
	"bytes"
	"encoding/json"
)

// Object is a JSON object that keeps its keys in insertion order. rt-app
// runs a phase's events in the order they appear in the file (json-c keeps
// it), so the phases cannot be Go maps.
type Object struct {
	keys []string
	vals []any
}

// Set appends key (or replaces its value when it is already present).
func (o *Object) Set(key string, v any) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = v
			return
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
}

// setAfter sets key like Set, but a new key goes right after the key
// after (at the end when after is absent): a thread object's "cpus"
// follows its "instance" whether the group had a mask or not.
func (o *Object) setAfter(key, after string, v any) {
	if _, ok := o.Get(key); ok {
		o.Set(key, v)
		return
	}
	at := len(o.keys)
	for i, k := range o.keys {
		if k == after {
			at = i + 1
		}
	}
	o.keys = append(o.keys[:at], append([]string{key}, o.keys[at:]...)...)
	o.vals = append(o.vals[:at], append([]any{v}, o.vals[at:]...)...)
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

// clone returns a copy of o whose keys can be set independently (nested
// values are shared).
func (o *Object) clone() *Object {
	return &Object{keys: append([]string(nil), o.keys...), vals: append([]any(nil), o.vals...)}
}

// Keys returns the keys in order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// MarshalJSON writes the keys in insertion order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
