package census

import (
	"fmt"
	"strconv"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/survey"
)

// The census annotation of an octal survey's variants: the code's standard
// form and how its period compares with the published tables, under
// "annotations": {"census": …} in the JSON report and census.* columns in
// the CSV report.
func init() {
	survey.RegisterAnnotation(survey.Annotation{
		Key:      "census",
		Applies:  Applies,
		Annotate: annotate,
	})
}

// Applies says whether a survey's family is the census's: octal codes,
// the only games the published tables list.
func Applies(family string) bool { return family == heap.OctalRule }

// annotate compares a done variant with the tables; nil when it has no
// period result.
func annotate(v *survey.VariantResult) (any, error) {
	res, err := v.Decode()
	if err != nil || res == nil || res.Period == nil {
		return nil, err
	}
	code, upto, err := CodeOf(v)
	if err != nil {
		return nil, err
	}
	row, err := Compare(code, upto, res.Period)
	if err != nil {
		return nil, err
	}
	return row, nil
}

// CodeOf returns the code and upto of an octal survey's variant.
func CodeOf(v *survey.VariantResult) (string, int, error) {
	code, upto := "", -1
	for _, p := range v.Params {
		switch p.Key {
		case "code":
			code = survey.Compact(p.Value)
		case "upto":
			n, err := strconv.Atoi(survey.Compact(p.Value))
			if err != nil {
				return "", 0, fmt.Errorf("census: variant %d: upto %v: %w", v.Index, p.Value, err)
			}
			upto = n
		}
	}
	if code == "" || upto < 0 {
		return "", 0, fmt.Errorf("census: variant %d: no code or upto", v.Index)
	}
	return code, upto, nil
}
