package code

import (
	"os"
	"testing"

	"github.com/nimbook/nimbook/explore/testmain"
)

// TestMain stretches go test's default timeout: see package testmain.
func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
