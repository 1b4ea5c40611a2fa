package browser

import (
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
