// Package protocol is rlock's line protocol v1 (docs/clients.md) as the Go adapters speak it: one
// JSON object a line on stdin and stdout, an increment's read and write through the harness, and
// the loop that answers every increment with its done. Adapters use it through a replace directive
// in their go.mod. Not safe for concurrent use: an adapter speaks from one goroutine.
package protocol

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Message is any message from the harness; each type uses the fields it has.
type Message struct {
	Type    string   `json:"type"`
	ID      int64    `json:"id"`
	Key     string   `json:"key"`
	Amount  int64    `json:"amount"`
	Balance int64    `json:"balance"`
	Claimed bool     `json:"claimed"`
	Applied bool     `json:"applied"`
	Redis   []string `json:"redis"`
	TTLMs   int64    `json:"ttl_ms"`
	// init's steps: those the harness asks to be announced; nil when it names none.
	Steps *[]string `json:"steps"`
}

// announced holds the steps the harness asked for; a harness that names none asks for the release
// alone, as protocol 1 first had it.
var announced = map[string]bool{"release": true}

// TTL is init's ttl_ms as a duration.
func (m Message) TTL() time.Duration { return time.Duration(m.TTLMs) * time.Millisecond }

// ErrTrialOver: the harness closed stdin, the trial ended.
var ErrTrialOver = errors.New("the harness closed stdin")

var lines = func() *bufio.Scanner {
	s := bufio.NewScanner(os.Stdin)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	return s
}()

// Send writes one message, a line.
func Send(message map[string]any) {
	line, _ := json.Marshal(message)
	os.Stdout.Write(append(line, '\n'))
}

// Receive is the next message, which must be of type expected; ErrTrialOver at the end of stdin.
// Any other message ends the adapter with a line on stderr: the harness counts a client error.
func Receive(expected string) (Message, error) {
	if !lines.Scan() {
		return Message{}, ErrTrialOver
	}
	var m Message
	if err := json.Unmarshal(lines.Bytes(), &m); err != nil || m.Type != expected {
		fmt.Fprintf(os.Stderr, "%s: expected %s, got %s\n", os.Args[0], expected, lines.Text())
		os.Exit(1)
	}
	if expected == "init" && m.Steps != nil {
		announced = map[string]bool{}
		for _, step := range *m.Steps {
			announced[step] = true
		}
	}
	return m, nil
}

// Step tells the harness the library is about to take the step name ("acquire", "acquired",
// "release", "extend") of the increment id, and waits until the harness lets it (step_ok): a fault
// may wait for it. Nothing when the harness did not ask for that step.
func Step(id int64, name string) error {
	if !announced[name] {
		return nil
	}
	Send(map[string]any{"type": "step", "id": id, "step": name})
	_, err := Receive("step_ok")
	return err
}

// ReadModifyWrite, once the lock is taken (the step "acquired"), reads the account and writes it plus the amount, without a token. lost, when not
// nil, is asked after the read: a non-empty answer (the library said the lock is gone) is the
// increment's error, and nothing is written.
func ReadModifyWrite(request Message, lost func() string) (string, error) {
	if err := Step(request.ID, "acquired"); err != nil {
		return "", err
	}
	Send(map[string]any{"type": "read", "id": request.ID})
	read, err := Receive("read_ok")
	if err != nil {
		return "", err
	}
	if lost != nil {
		if why := lost(); why != "" {
			return why, nil
		}
	}
	Send(map[string]any{"type": "write", "id": request.ID, "balance": read.Balance + request.Amount})
	_, err = Receive("write_ok")
	return "", err
}

// FencedReadModifyWrite claims the account with token at the read and writes with it; refusal is
// the increment's error (not a Go error, which only ErrTrialOver is).
func FencedReadModifyWrite(request Message, token int64) (refusal string, err error) {
	if err := Step(request.ID, "acquired"); err != nil {
		return "", err
	}
	Send(map[string]any{"type": "read", "id": request.ID, "token": token, "claim": true})
	read, err := Receive("read_ok")
	if err != nil {
		return "", err
	}
	if !read.Claimed {
		return fmt.Sprintf("the claim of token %d was refused: a newer holder claimed the account", token), nil
	}
	Send(map[string]any{"type": "write", "id": request.ID, "balance": read.Balance + request.Amount, "token": token})
	written, err := Receive("write_ok")
	if err != nil {
		return "", err
	}
	if !written.Applied {
		return fmt.Sprintf("the write with token %d was refused", token), nil
	}
	return "", nil
}

// Serve answers init with init_ok once setUp accepted it, then runs each increment through
// increment, whose string is the increment's error (empty: none), and sends its done, until the
// harness closes stdin.
func Serve(setUp func(init Message) error, increment func(request Message) (string, error)) {
	init, err := Receive("init")
	if err != nil {
		return
	}
	if err := setUp(init); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[0], err)
		os.Exit(1)
	}
	Send(map[string]any{"type": "init_ok"})
	for {
		request, err := Receive("increment")
		if err != nil || Step(request.ID, "acquire") != nil {
			return
		}
		failure, err := increment(request)
		if err != nil {
			return
		}
		done := map[string]any{"type": "done", "id": request.ID}
		if failure != "" {
			done["error"] = failure
		}
		Send(done)
	}
}
