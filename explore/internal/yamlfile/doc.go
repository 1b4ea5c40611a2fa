// Package yamlfile reads the YAML of job and survey files with the errors
// their users need: the file, the line and the key path of a bad value,
// and what to write instead (a typo's nearest allowed key, the range a
// number must be in). It keeps yaml.Node values, which carry lines, rather
// than decoding into structs, which lose them.
package yamlfile
