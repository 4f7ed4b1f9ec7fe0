package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// exploreModel is the terminal explorer (bubbletea): the results on the
// left, the steps of the selected result below them, and on the right
// the source around the current step with the values it produced and the
// state so far.
type exploreModel struct {
	results []exploreResult
	base    string // positions are relative to it
	sel     int    // selected result
	step    int    // current step of the selected result
	focus   int    // focusResults or focusSteps
	help    bool
	width   int
	height  int
	sources map[string][]string // file → lines (nil: unreadable)
}

const (
	focusResults = iota
	focusSteps
)

func newExploreModel(results []exploreResult, base string) *exploreModel {
	m := &exploreModel{results: results, base: base, width: 120, height: 36, sources: map[string][]string{}}
	for i, r := range results {
		if r.Verdict == "UNSAFE" {
			m.sel = i
			break
		}
	}
	return m
}

func (m *exploreModel) Init() tea.Cmd { return nil }

func (m *exploreModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		steps := len(m.results[m.sel].Steps)
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			if m.help && msg.String() == "esc" {
				m.help = false
				return m, nil
			}
			return m, tea.Quit
		case "?":
			m.help = !m.help
		case "tab":
			m.focus = 1 - m.focus
		case "enter", "right", "l":
			m.focus = focusSteps
		case "left", "h":
			m.focus = focusResults
		case "down", "j":
			if m.focus == focusResults {
				m.selectResult(m.sel + 1)
			} else {
				m.step = min(m.step+1, max(steps-1, 0))
			}
		case "up", "k":
			if m.focus == focusResults {
				m.selectResult(m.sel - 1)
			} else {
				m.step = max(m.step-1, 0)
			}
		case "n", " ":
			m.step = min(m.step+1, max(steps-1, 0))
		case "p", "backspace":
			m.step = max(m.step-1, 0)
		case "g", "home":
			m.step = 0
		case "G", "end":
			m.step = max(steps-1, 0)
		}
	}
	return m, nil
}

func (m *exploreModel) selectResult(i int) {
	if i < 0 || i >= len(m.results) || i == m.sel {
		return
	}
	m.sel, m.step = i, 0
}

var (
	titleStyle    = lipgloss.NewStyle().Bold(true)
	focusedBorder = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("12"))
	plainBorder   = lipgloss.NewStyle().Border(lipgloss.NormalBorder())
	currentStyle  = lipgloss.NewStyle().Reverse(true)
	unsafeStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)
	unknownStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	dimStyle      = lipgloss.NewStyle().Faint(true)
)

func (m *exploreModel) View() string {
	if m.help {
		return m.helpView()
	}
	r := m.results[m.sel]
	leftW := max(m.width*2/5, 30)
	rightW := max(m.width-leftW-4, 30)
	bodyH := max(m.height-4, 10)
	resH := min(len(m.results)+1, max(bodyH/3, 3))
	stepsH := max(bodyH-resH-4, 3)

	var res []string
	for i, x := range m.results {
		verdict := unknownStyle.Render("UNKNOWN")
		if x.Verdict == "UNSAFE" {
			verdict = unsafeStyle.Render("UNSAFE ")
		}
		line := fmt.Sprintf("%s %s", verdict, shortEntry(x.Entry))
		if i == m.sel {
			line = currentStyle.Render(truncate("▶ "+lipgloss.NewStyle().Render(line), leftW))
		} else {
			line = "  " + line
		}
		res = append(res, truncate(line, leftW))
	}
	res = window(res, m.sel, resH)

	var steps []string
	if len(r.Steps) == 0 {
		steps = wrap(r.Reason, leftW)
	}
	for i, s := range r.Steps {
		mark := " "
		if i == m.step {
			mark = "▶"
		}
		line := truncate(fmt.Sprintf("%s%2d %-6s %s", mark, i+1, s.Kind, s.Text), leftW)
		if i == m.step {
			line = currentStyle.Render(line)
		}
		steps = append(steps, line)
	}
	steps = window(steps, m.step, stepsH)

	border := func(focused bool) lipgloss.Style {
		if focused {
			return focusedBorder
		}
		return plainBorder
	}
	left := lipgloss.JoinVertical(lipgloss.Left,
		border(m.focus == focusResults).Width(leftW).Height(resH).Render(strings.Join(res, "\n")),
		border(m.focus == focusSteps).Width(leftW).Height(stepsH).Render(strings.Join(steps, "\n")),
	)
	right := plainBorder.Width(rightW).Height(bodyH - 2).Render(m.sourceView(r, rightW, bodyH-2))
	header := titleStyle.Render(truncate(fmt.Sprintf("dbverify explore — %s %s [%s]", r.Verdict, r.Entry, r.Constraint), m.width))
	footer := dimStyle.Render("↑/↓ move  tab switch pane  n/p next/previous step  g/G first/last  ? help  q quit")
	return lipgloss.JoinVertical(lipgloss.Left, header, lipgloss.JoinHorizontal(lipgloss.Top, left, right), footer)
}

// sourceView shows the current step's position, the source lines around
// it with the line marked, the step's values and the state so far.
func (m *exploreModel) sourceView(r exploreResult, w, h int) string {
	var out []string
	notes := noteLines(r.Notes, w, h/3)
	if len(r.Steps) == 0 {
		out = append(out, truncate(r.Position, w))
		out = append(out, notes...)
		return strings.Join(append(out, m.context(r.Position, w, h-2-len(notes))...), "\n")
	}
	s := r.Steps[m.step]
	out = append(out, truncate(fmt.Sprintf("step %d/%d  %s  %s", m.step+1, len(r.Steps), s.Position, s.Kind), w))
	out = append(out, notes...)
	ctx := m.context(s.Position, w, max(h-10-len(notes), 3))
	out = append(out, ctx...)
	if s.Values != "" {
		out = append(out, "", truncate("⇒ "+s.Values, w))
	}
	state := append([]string(nil), r.Inputs...)
	for _, x := range r.Steps[:m.step+1] {
		if x.Values != "" {
			state = append(state, x.Values)
		}
	}
	if len(state) > 0 {
		out = append(out, "", "state so far:")
		out = append(out, wrap(lastValues(state), w)...)
	}
	if m.step == len(r.Steps)-1 && r.Violation != "" {
		out = append(out, "", unsafeStyle.Render(truncate("violation: "+r.Violation, w)))
	}
	return strings.Join(out, "\n")
}

// noteLines are a result's notes (assuming …, note: …) as the text
// report words them, wrapped to w, at most h lines (the last one then
// ends with … and says how many more).
func noteLines(notes []string, w, h int) []string {
	var out []string
	for _, n := range notes {
		for i, l := range wrap(n, w-2) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, dimStyle.Render(l))
		}
	}
	if len(out) > h && h > 0 {
		out = append(out[:h-1], dimStyle.Render(fmt.Sprintf("… (%d more line(s): dbverify explore report.json | less)", len(out)-h+1)))
	}
	return out
}

// lastValues keeps the last value of each name in "a = 1, b = 2" lists.
func lastValues(lists []string) string {
	val := map[string]string{}
	var order []string
	for _, l := range lists {
		for _, part := range strings.Split(l, ", ") {
			name, v, ok := strings.Cut(part, " = ")
			if !ok {
				continue
			}
			if _, seen := val[name]; !seen {
				order = append(order, name)
			}
			val[name] = v
		}
	}
	var out []string
	for _, n := range order {
		out = append(out, n+" = "+val[n])
	}
	return strings.Join(out, ", ")
}

// context returns the lines around pos ("file:line"), the line itself
// marked.
func (m *exploreModel) context(pos string, w, h int) []string {
	file, line, ok := splitPos(pos)
	if !ok {
		return nil
	}
	lines := m.source(file)
	if lines == nil {
		return []string{dimStyle.Render(truncate("(source not found: "+file+")", w))}
	}
	from := max(line-h/2, 1)
	to := min(from+h-1, len(lines))
	var out []string
	for n := from; n <= to; n++ {
		text := fmt.Sprintf("%4d  %s", n, strings.ReplaceAll(lines[n-1], "\t", "    "))
		if n == line {
			out = append(out, currentStyle.Render(truncate("▶"+text[1:], w)))
		} else {
			out = append(out, truncate(text, w))
		}
	}
	return out
}

func (m *exploreModel) source(file string) []string {
	if lines, ok := m.sources[file]; ok {
		return lines
	}
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.base, file)
	}
	data, err := os.ReadFile(path)
	var lines []string
	if err == nil {
		lines = strings.Split(string(data), "\n")
	}
	m.sources[file] = lines
	return lines
}

func (m *exploreModel) sourceLine(pos string) (string, bool) {
	file, line, ok := splitPos(pos)
	if !ok {
		return "", false
	}
	lines := m.source(file)
	if line < 1 || line > len(lines) {
		return "", false
	}
	return lines[line-1], true
}

func (m *exploreModel) helpView() string {
	return strings.Join([]string{
		titleStyle.Render("dbverify explore — keys"),
		"",
		"  ↑/k ↓/j      move in the focused pane (results or steps)",
		"  tab          switch between the result list and the step list",
		"  enter/→      go to the steps of the selected result; ←: back to the results",
		"  n/space p    next / previous step of the counterexample",
		"  g G          first / last step",
		"  ?            this help (esc closes it)",
		"  q            quit",
		"",
		"The right pane shows the source line of the current step, the values it",
		"produced (⇒) and the state so far: the inputs and the last value of every",
		"variable and row column; the last step shows the row that breaks the constraint.",
		"Under the step line, dimmed: what the verdict relies on (assuming …) and what",
		"a value's name means (note: …), as the text report says them.",
	}, "\n")
}

func splitPos(pos string) (string, int, bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(pos[i+1:])
	return pos[:i], n, err == nil
}

func shortEntry(e string) string {
	if i := strings.LastIndexByte(e, '/'); i >= 0 {
		return e[i+1:]
	}
	return e
}

func truncate(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func wrap(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && lipgloss.Width(line)+1+lipgloss.Width(word) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// window returns at most h of lines, scrolled so that line cur shows.
func window(lines []string, cur, h int) []string {
	if len(lines) <= h {
		return lines
	}
	from := max(0, min(cur-h/2, len(lines)-h))
	return lines[from : from+h]
}
