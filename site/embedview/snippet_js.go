//go:build js && wasm

package embedview

import "schedplay/site/viewkit"

// CopySnippet puts the "Embed" snippet of a scenario document on the
// clipboard, for the playground's Embed button: base is the playground's
// address without the fragment (location origin + path), doc the current
// scenario's JSON. It returns the snippet and how it was copied
// ("clipboard", "execCommand", or "" when copying failed and the caller
// should show the snippet for manual copying). Call it from a goroutine,
// not from the click handler itself.
func CopySnippet(base string, doc []byte) (snippet, how string, err error) {
	snippet, err = Snippet(base, doc)
	if err != nil {
		return "", "", err
	}
	return snippet, viewkit.CopyText(snippet), nil
}
