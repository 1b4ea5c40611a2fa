package job

import (
	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// ParseSection checks one section given as a YAML node, exactly as a
// section of a job file would be checked, and returns it. file and path
// (e.g. "survey") name the node in error messages, with the line of the
// node each error is about. Surveys use it to check every variant they
// generate with the job file's own errors.
func ParseSection(file string, n *yaml.Node, path string) (*Section, error) {
	p := &parser{yamlfile.Parser{File: file}}
	return p.section(n, path)
}
