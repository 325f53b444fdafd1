import { Component, type ReactNode } from "react";

export const FALLBACK_TEXT = "Oops! something went wrong";

/** A failing island shows the spec's fallback instead of a blank area. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    if (this.state.failed) {
      return (
        <div className="dash-card dash-error" role="alert">
          <p>{FALLBACK_TEXT}</p>
        </div>
      );
    }
    return this.props.children;
  }
}
